// The TO console follows the round by itself (tournaments/views.py, event_run_live): every 5 s
// it asks what changed, and the answer sends the status lines and every card out of band.
// A card is replaced only when what it shows has changed (its data-state) and the TO is not
// working in it: the focus inside it, its finishing-order form opened, or a refusal shown. A
// card kept for that reason says that it changed on another screen; saving it shows how.
// The player list comes only when the players changed (a registration, a check-in, a drop);
// one the TO is working in (focus inside, a player's actions opened) is kept, with a note
// and a link that shows the list as it is now.
(function () {
  "use strict";

  // The page's catalogue translates, through the site's one fallback (English without it).
  var words = window.GuildhallI18n; // guildhall/i18n.js, loaded before this script
  var gettext = words.gettext;
  var fill = words.fill;

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target.matches && target.matches("ul#entries")) {
      keepPlayerList(event, target);
      return;
    }
    if (!target.matches || !target.matches("article[data-state]")) {
      return;
    }
    var incoming = event.detail.fragment.firstElementChild;
    if (!incoming || incoming.getAttribute("data-state") === target.getAttribute("data-state")) {
      event.detail.shouldSwap = false;
      return;
    }
    var busy =
      target.contains(document.activeElement) ||
      target.querySelector(".order-slot form, .errorlist") !== null;
    if (busy) {
      event.detail.shouldSwap = false;
      if (!target.querySelector(".changed-elsewhere")) {
        var note = document.createElement("p");
        note.className = "message warning changed-elsewhere";
        note.setAttribute("role", "status");
        note.textContent = gettext("Changed on another screen while you were entering this.");
        target.insertBefore(note, target.firstElementChild.nextSibling);
      }
    }
  });

  function keepPlayerList(event, list) {
    var busy = list.contains(document.activeElement) || list.querySelector("details[open]");
    if (!busy) {
      return;
    }
    event.detail.shouldSwap = false;
    if (list.previousElementSibling && list.previousElementSibling.matches(".changed-elsewhere")) {
      return;
    }
    var note = document.createElement("p");
    note.className = "message warning changed-elsewhere";
    note.setAttribute("role", "status");
    note.textContent = gettext("The players changed on another screen while you were working here.") + " ";
    var link = document.createElement("a");
    link.href = window.location.pathname;
    link.textContent = gettext("Show the list as it is now");
    note.appendChild(link);
    list.parentNode.insertBefore(note, list);
  }

  // A card's note counts minutes ("judge called · 2 min", <time class="since" datetime>): the
  // live part answers only when something changed, so the page counts on between its answers.
  function countMinutes() {
    var times = document.querySelectorAll("article[data-state] time.since[datetime]");
    for (var i = 0; i < times.length; i++) {
      var since = Date.parse(times[i].getAttribute("datetime"));
      if (!isNaN(since)) {
        var minutes = Math.max(0, Math.floor((Date.now() - since) / 60000));
        times[i].textContent = fill(gettext("%(minutes)s min"), { minutes: minutes });
      }
    }
  }
  setInterval(countMinutes, 15000);
  document.addEventListener("htmx:afterSettle", countMinutes);
})();
