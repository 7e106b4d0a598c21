// The round's clock, counted on the page (issue 43): the projector, a player's seat card, the
// TO's console and the judge desk. Each clock is an element with `data-round-clock` carrying
// when time is up (`data-ends`, an ISO moment the server wrote) and the store's time zone
// (`data-time-zone`). Once a second the page writes what is left in its timer (the `timer`
// inside it, else itself): "12:34 left", or "12 min" with `data-clock-unit="min"` on the
// projector, then "time is up"; a clock hidden until then is shown. From that moment and the
// phone's clock alone: it keeps counting offline and on a copy the phone kept, and a clock an
// htmx swap brings is counted from the next second. The ticking element is a `timer` with
// aria-live off: a screen reader reads it when asked, not every second.
//
// `GuildhallClock.hhmm(moment, zone)` is the one way a script writes a time of the night: 24-hour
// HH:MM in the store's zone, as the server's pages write it (the offline scripts use it).
(function () {
  "use strict";

  // The page's catalogue translates, through the site's one fallback (English without it).
  var words = window.GuildhallI18n; // guildhall/i18n.js, loaded before this script
  var gettext = words.gettext;
  var fill = words.fill;

  var formats = {};

  function hhmm(moment, zone) {
    var key = zone || "";
    if (!formats[key]) {
      var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
      try {
        formats[key] = new Intl.DateTimeFormat("en-GB", zone ? Object.assign({ timeZone: zone }, options) : options);
      } catch (error) {
        formats[key] = new Intl.DateTimeFormat("en-GB", options); // an unknown zone: the phone's
      }
    }
    return formats[key].format(new Date(moment));
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function left(ms, unit) {
    if (unit === "min") {
      var minutes = Math.max(0, Math.floor(ms / 60000));
      return fill(gettext("%(minutes)s min"), { minutes: minutes });
    }
    if (ms <= 0) {
      return gettext("time is up");
    }
    var total = Math.ceil(ms / 1000);
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    var time = (hours ? hours + ":" + two(minutes) : String(minutes)) + ":" + two(seconds);
    // Translators: what is left of the round's clock, "12:34 left".
    return fill(gettext("%(time)s left"), { time: time });
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-round-clock][data-ends]");
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var ends = Date.parse(clocks[i].getAttribute("data-ends"));
      if (isNaN(ends)) {
        continue;
      }
      var text = left(ends - now, clocks[i].getAttribute("data-clock-unit"));
      var timer = clocks[i].querySelector("[role=timer]") || clocks[i];
      if (timer.textContent !== text) {
        timer.textContent = text;
      }
      clocks[i].hidden = false;
    }
  }

  window.GuildhallClock = { hhmm: hhmm, left: left };
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
})();
