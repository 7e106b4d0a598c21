// Guildhall offline: the TO's console and the players' own pages outlast the store's Wi-Fi or
// the server going away (docs/organizers.md, "When the Wi-Fi or the site goes away").
//
// The page holds an element #offline-banner (data-offline-kind "console" or "player",
// data-event the event's slug, data-as-of when the server drew the page). This script:
// - registers the service worker (tournaments/offline/views.py), which keeps the page's last
//   good copy on the phone, and links the web app's manifest;
// - on the console, puts a result tapped while the server cannot be reached into a queue on
//   the phone (IndexedDB, in tap order; a second tap on the same table before it is sent
//   replaces the first), marks that table's card and says so in the banner ("Offline since
//   21:14 · 3 results waiting");
// - when the server answers again, sends the queue in order to the card's own address, each
//   result with the table version it was made against (`version`) and the time it was tapped
//   (`offline`): the server stores it once (a repeat of a stored result changes nothing), and
//   a table changed meanwhile comes back as a conflict (409), kept on the phone and shown on
//   its card for the TO to settle. Nothing is overwritten, nothing is dropped;
// - on a player's page, says "as of 21:14" when it shows what it last knew, and queues their
//   own report or confirmation tapped while the server cannot be reached, as the console
//   queues its results: sent in order with the table version the player saw and the time it
//   was tapped; the server stores it once (a repeat is "already done"), and a table changed
//   meanwhile comes back refused with the reason, kept on the page until the player has read
//   it;
// - on the console, has the service worker keep the page that pairs a round without the
//   server and its code (Pyodide), and keeps the pairing snapshot beside the event's state, so
//   that page works offline even when it was never opened before the outage.
//
// Other scripts (the offline pairing) use `window.GuildhallOffline` (see the end of this file).
(function () {
  "use strict";

  // The page's catalogue (kept by the service worker for the outage) translates, through the
  // site's one fallback, guildhall/i18n.js, loaded before this script: English without it.
  var words = window.GuildhallI18n;
  var gettext = words.gettext;
  var ngettext = words.ngettext;
  var fill = words.fill;

  var banner = document.getElementById("offline-banner");
  if (!banner) {
    return;
  }
  var KIND = banner.getAttribute("data-offline-kind");
  var SLUG = banner.getAttribute("data-event");
  var ZONE = banner.getAttribute("data-time-zone"); // the store's: every time is its clock's
  var STATE_URL = banner.getAttribute("data-state-url");
  var SNAPSHOT_URL = banner.getAttribute("data-snapshot-url");
  var SINCE_KEY = "guildhall-offline-since";
  var RETRY_SECONDS = 10;
  var KEEP_SECONDS = 10;
  var REPORT = /\/tables\/(\d+)\/report\/$/;

  var copy = document.documentElement.hasAttribute("data-offline-copy");
  var lastGood = new Date(banner.getAttribute("data-as-of") || Date.now());
  var serverDown = copy;
  var queue = []; // this event's queued results, in tap order
  var settle = []; // this event's results the server refused or found in conflict
  var flushing = null;
  var signIn = false;
  var keptAt = Date.now(); // the page itself was just drawn (and kept by the worker)
  var keepTimer = null;
  var listeners = [];
  var held = ""; // what the banner says about a form held back while offline
  var kept = false; // the phone keeps data for this page (IndexedDB opened)
  var others = 0; // results of other events waiting on this phone
  var enqueued = Promise.resolve(); // taps are queued one after the other
  var landing = null; // a player's page to show once their queue is sent

  // --- Times ---------------------------------------------------------------------------------

  function hhmm(date) {
    if (window.GuildhallClock) {
      return window.GuildhallClock.hhmm(date, ZONE); // static/tournaments/clock.js
    }
    var d = new Date(date); // that script missing: the phone's own clock, still 24-hour
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }

  function offline() {
    return navigator.onLine === false || serverDown;
  }

  function since() {
    var stored = window.localStorage.getItem(SINCE_KEY);
    return stored ? new Date(Number(stored)) : null;
  }

  function wentOffline() {
    if (!window.localStorage.getItem(SINCE_KEY)) {
      window.localStorage.setItem(SINCE_KEY, String(Date.now()));
    }
    render();
  }

  function cameBack() {
    lastGood = new Date();
    copy = false;
    held = "";
    if (serverDown || window.localStorage.getItem(SINCE_KEY)) {
      serverDown = false;
      window.localStorage.removeItem(SINCE_KEY);
      render();
    }
    if (queue.length) {
      flush();
    }
  }

  // --- IndexedDB -----------------------------------------------------------------------------

  var dbPromise = new Promise(function (resolve, reject) {
    if (!window.indexedDB) {
      reject(new Error("This browser keeps no data for pages (IndexedDB)."));
      return;
    }
    var open = window.indexedDB.open("guildhall-offline", 1);
    open.onupgradeneeded = function () {
      var db = open.result;
      db.createObjectStore("queue", { keyPath: "id", autoIncrement: true }).createIndex(
        "event",
        "event",
      );
      db.createObjectStore("settle", { keyPath: "id", autoIncrement: true }).createIndex(
        "event",
        "event",
      );
      db.createObjectStore("state", { keyPath: "event" });
    };
    open.onsuccess = function () {
      kept = true;
      resolve(open.result);
    };
    open.onerror = function () {
      reject(open.error);
    };
  });

  function tx(store, mode, work) {
    return dbPromise.then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(store, mode);
        var result;
        t.oncomplete = function () {
          resolve(result);
        };
        t.onerror = t.onabort = function () {
          reject(t.error);
        };
        work(t.objectStore(store), function (value) {
          result = value;
        });
      });
    });
  }

  function allOf(store, slug) {
    return tx(store, "readonly", function (s, done) {
      var req = s.index("event").getAll(slug);
      req.onsuccess = function () {
        done(
          req.result.sort(function (a, b) {
            return a.id - b.id;
          }),
        );
      };
    });
  }

  // The console's queue and a player's own share the store: each page sends its own kind.
  function ours(items) {
    return items.filter(function (item) {
      return (item.kind || "console") === KIND;
    });
  }

  function put(store, value) {
    return tx(store, "readwrite", function (s, done) {
      var req = s.put(value);
      req.onsuccess = function () {
        done(req.result);
      };
    });
  }

  function remove(store, id) {
    return tx(store, "readwrite", function (s) {
      s.delete(id);
    });
  }

  function countAll(store) {
    return tx(store, "readonly", function (s, done) {
      var req = s.getAll();
      req.onsuccess = function () {
        done(ours(req.result).length);
      };
    });
  }

  // A sent result leaves the queue, unless the TO tapped that table again while it was on its
  // way: the new tap stays, and goes next.
  function removeSent(item) {
    return tx("queue", "readwrite", function (s) {
      var req = s.get(item.id);
      req.onsuccess = function () {
        if (req.result && req.result.tapped === item.tapped) {
          s.delete(item.id);
        }
      };
    });
  }

  function reload() {
    var reads = [allOf("queue", SLUG), allOf("settle", SLUG), countAll("queue")];
    return Promise.all(reads).then(function (both) {
      queue = ours(both[0]);
      settle = ours(both[1]);
      others = both[2] - queue.length;
      render();
      if (KIND === "console") {
        decorate();
      }
    });
  }

  // --- The banner and the cards ----------------------------------------------------------------

  function offlineSince(gone) {
    return gone ? fill(gettext("Offline since %(time)s"), { time: hhmm(gone) }) : gettext("Offline");
  }

  // A player's report or confirmation on the phone, each in its own whole sentence (issue 45:
  // "Your %(report)s" with the word put in read wrongly in other languages): what it says
  // (`label`, the page's words: "Ann – Bob 2-0", "Ann won") is a value in it.
  function waiting(item) {
    var values = { result: item.label, time: item.hhmm };
    if (item.action === "confirm") {
      return fill(gettext("Your confirmation (%(result)s, tapped at %(time)s) waits to be sent"), values);
    }
    return fill(gettext("Your report (%(result)s, tapped at %(time)s) waits to be sent"), values);
  }

  function notStored(item) {
    var values = { result: item.label, time: item.hhmm, reason: item.reason };
    if (item.action === "confirm") {
      return fill(
        gettext("Your confirmation (%(result)s, tapped offline at %(time)s) was not stored: %(reason)s"),
        values,
      );
    }
    return fill(gettext("Your report (%(result)s, tapped offline at %(time)s) was not stored: %(reason)s"), values);
  }

  function render() {
    var parts = [];
    var gone = since();
    if (KIND === "player") {
      if (offline() || copy) {
        parts.push(
          offlineSince(gone) +
            " · " +
            fill(
              gettext("your seat as of %(time)s: the page updates itself when the connection is back."),
              { time: hhmm(lastGood) },
            ),
        );
      }
      queue.forEach(function (item) {
        parts.push(waiting(item));
      });
      settle.forEach(function (item) {
        parts.push(notStored(item));
      });
    } else {
      if (offline()) {
        parts.push(offlineSince(gone));
        if (held) {
          parts.push(held);
        }
        parts.push(
          queue.length
            ? fill(ngettext("%(count)s result waiting", "%(count)s results waiting", queue.length), {
                count: queue.length,
              })
            : fill(gettext("the round as of %(time)s"), { time: hhmm(lastGood) }),
        );
      } else if (signIn && queue.length) {
        parts.push(
          fill(
            ngettext(
              "%(count)s result waiting: log in again to send them",
              "%(count)s results waiting: log in again to send them",
              queue.length,
            ),
            { count: queue.length },
          ),
        );
      } else if (queue.length) {
        parts.push(
          fill(
            ngettext(
              "Back online · sending %(count)s result",
              "Back online · sending %(count)s results",
              queue.length,
            ),
            { count: queue.length },
          ),
        );
      }
      if (others > 0) {
        parts.push(
          fill(
            ngettext(
              "%(count)s result of another event wait on this phone: open that event's console to send them",
              "%(count)s results of another event wait on this phone: open that event's console to send them",
              others,
            ),
            { count: others },
          ),
        );
      }
      if (settle.length) {
        parts.push(
          fill(
            ngettext(
              "%(count)s table to settle (entered offline, not stored: see the cards)",
              "%(count)s tables to settle (entered offline, not stored: see the cards)",
              settle.length,
            ),
            { count: settle.length },
          ),
        );
      }
    }
    banner.textContent = parts.join(" · ");
    if (KIND === "player" && settle.length) {
      var seen = document.createElement("button");
      seen.type = "button";
      seen.className = "secondary";
      seen.textContent = gettext("Got it");
      seen.addEventListener("click", function () {
        Promise.all(
          settle.map(function (item) {
            return remove("settle", item.id);
          }),
        ).then(reload);
      });
      banner.appendChild(document.createTextNode(" "));
      banner.appendChild(seen);
    }
    banner.hidden = parts.length === 0;
    banner.classList.toggle("offline-now", offline());
    listeners.forEach(function (fn) {
      try {
        fn();
      } catch (error) {
        window.console.warn(error);
      }
    });
  }

  function cardOf(tableId) {
    return document.getElementById("table-" + tableId);
  }

  // A card's note: `format` (translated) with its %(result)s in bold.
  function note(card, className, format, values) {
    var at = format.indexOf("%(result)s");
    var text = at < 0 ? fill(format, values) : fill(format.slice(0, at), values);
    var strong = at < 0 ? "" : values.result;
    var rest = at < 0 ? "" : fill(format.slice(at + "%(result)s".length), values);
    var p = document.createElement("p");
    p.className = className;
    p.setAttribute("role", "status");
    p.appendChild(document.createTextNode(text));
    var b = document.createElement("strong");
    b.textContent = strong;
    p.appendChild(b);
    p.appendChild(document.createTextNode(rest));
    var header = card.querySelector("header");
    card.insertBefore(p, header ? header.nextSibling : card.firstChild);
    return p;
  }

  // Each card says what the phone holds for it: a queued result, or one to settle.
  function decorate() {
    var cards = document.querySelectorAll("article[data-table-id]");
    Array.prototype.forEach.call(cards, function (card) {
      var marks = card.querySelectorAll(".offline-queued, .offline-settle");
      Array.prototype.forEach.call(marks, function (mark) {
        mark.remove();
      });
      card.classList.remove("queued", "to-settle");
    });
    queue.forEach(function (item) {
      var card = cardOf(item.table);
      if (!card) {
        return;
      }
      card.classList.add("queued");
      note(card, "offline-queued", gettext("Waiting to send: %(result)s (tapped at %(time)s)"), {
        result: item.label,
        time: item.hhmm,
      });
    });
    settle.forEach(function (item) {
      var card = cardOf(item.table);
      if (!card) {
        return;
      }
      card.classList.add("to-settle");
      var p = note(
        card,
        "offline-settle",
        gettext(
          "Entered offline at %(time)s: %(result)s — not stored. %(reason)s The card shows the table as it is now: keep it, or tap the result again.",
        ) + " ",
        { result: item.label, time: item.hhmm, reason: item.reason },
      );
      var done = document.createElement("button");
      done.type = "button";
      done.className = "secondary";
      done.textContent = gettext("Settled");
      done.addEventListener("click", function () {
        remove("settle", item.id).then(reload);
      });
      p.appendChild(done);
    });
  }

  // --- The queue ---------------------------------------------------------------------------

  function isResult(detail) {
    return KIND === "console" && detail.verb === "post" && REPORT.test(detail.path);
  }

  function labelOf(card, params) {
    if (!card) {
      return gettext("a result");
    }
    // The button tapped (a name, "Draw", "2-0"...), or a pod's full finishing order.
    var buttons = card.querySelectorAll("button[name]");
    for (var i = 0; i < buttons.length; i++) {
      var button = buttons[i];
      var tapped = params.some(function (p) {
        return p[0] === button.name && p[1] === button.value;
      });
      if (tapped && button.value !== "order") {
        return button.textContent.replace(/\s+/g, " ").trim();
      }
    }
    return gettext("the full finishing order");
  }

  // One tap after the other: a second tap on a table replaces its waiting result only once
  // the first is written.
  function enqueue(detail) {
    var tap = { path: detail.path, formData: detail.formData };
    enqueued = enqueued
      .then(function () {
        return write(tap);
      })
      .catch(function (error) {
        window.console.warn("This result could not be kept on the phone:", error);
      });
    return enqueued;
  }

  function write(detail) {
    var tableId = Number(REPORT.exec(detail.path)[1]);
    var params = [];
    detail.formData.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") {
        params.push([key, String(value)]);
      }
    });
    var card = cardOf(tableId);
    var now = Date.now();
    var earlier = queue.filter(function (item) {
      return item.table === tableId;
    })[0];
    var versions = params.filter(function (p) {
      return p[0] === "version";
    });
    var item = {
      event: SLUG,
      table: tableId,
      number: card ? card.getAttribute("data-table-number") : "",
      // A second tap before the first was sent corrects it: same place in the queue, same
      // version (the table the TO saw has not changed on this phone).
      version: earlier ? earlier.version : versions.length ? versions[0][1] : "",
      path: detail.path,
      params: params,
      label: labelOf(card, params),
      tapped: now,
      hhmm: hhmm(now),
    };
    if (earlier) {
      item.id = earlier.id;
    }
    return put("queue", item).then(reload);
  }

  function token() {
    var headers = document.body.getAttribute("hx-headers");
    try {
      return JSON.parse(headers)["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // The card (and the round's status lines) the answer carries replace the page's own.
  function swapIn(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    // A copy of the list: each element moved into the page leaves the fragment's live list.
    Array.prototype.slice.call(template.content.children).forEach(function (incoming) {
      if (!incoming.id) {
        return;
      }
      var here = document.getElementById(incoming.id);
      if (!here) {
        return;
      }
      incoming.removeAttribute("hx-swap-oob");
      here.replaceWith(incoming);
      if (window.htmx) {
        window.htmx.process(incoming);
      }
    });
  }

  function refusedWith(status) {
    return fill(gettext("The server refused it (%(status)s)."), { status: status });
  }

  function reasonIn(html, fallback) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var error = template.content.querySelector(".errorlist, .message.error");
    return error ? error.textContent.replace(/\s+/g, " ").trim() : fallback;
  }

  // One queued result to the server: "stored" (or found already stored), "settled" (refused,
  // or a table changed meanwhile: kept for the TO), "wait" (no answer: kept) or "signin" (the
  // session is gone: kept).
  // A player's report or confirmation: the page answers with a redirect to itself once
  // stored (or found stored: "already done"), with the page and its message when refused. A
  // tap sent at once is an ordinary tap (a refusal shows the page's message, as the form
  // would); one that waited (`late`: tapped offline, or its first try had no answer) says
  // when it was tapped and the table version the player saw, and a refusal is kept for them.
  // A queued item's form fields as it is sent: its own, and when it waited (`waited`) the table
  // version it was made against and when it was tapped, in place of any the form carried.
  function postBody(item, waited) {
    var body = new URLSearchParams();
    item.params.forEach(function (p) {
      if (p[0] !== "version" && p[0] !== "offline") {
        body.append(p[0], p[1]);
      }
    });
    if (waited) {
      body.append("version", item.version);
      body.append("offline", item.hhmm);
    }
    return body;
  }

  function sendReport(item) {
    return fetch(item.path, {
      method: "POST",
      body: postBody(item, item.late),
      credentials: "same-origin",
      headers: { "X-CSRFToken": token() },
    }).then(
      function (response) {
        if (response.status >= 500) {
          return "wait";
        }
        if (response.ok) {
          landing = response.url;
          return "stored";
        }
        return response.text().then(function (html) {
          if (!item.late) {
            showAnswer(html);
            return "shown";
          }
          var reason =
            response.status === 429
              ? reasonIn(html, gettext("Too many reports at once."))
              : reasonIn(html, refusedWith(response.status));
          return put("settle", {
            event: SLUG,
            kind: KIND,
            table: item.table,
            action: item.action,
            label: item.label,
            hhmm: item.hhmm,
            status: response.status,
            reason: reason,
          }).then(function () {
            landing = window.location.pathname;
            return "settled";
          });
        });
      },
      function () {
        return "wait";
      },
    );
  }

  // A refused live tap: the page's own answer (its message, the table as it is now) in place.
  function showAnswer(html) {
    var answer = new DOMParser().parseFromString(html, "text/html");
    var live = document.getElementById("my-live");
    var fresh = answer.getElementById("my-live");
    if (live && fresh) {
      live.replaceWith(fresh);
      if (window.htmx) {
        window.htmx.process(fresh);
      }
    }
    var said = answer.querySelector("ul.messages");
    var here = document.querySelector("ul.messages");
    if (said && here) {
      here.replaceWith(said);
    } else if (said && document.querySelector("main")) {
      document.querySelector("main").prepend(said);
    }
  }

  function send(item) {
    if (item.kind === "player") {
      return sendReport(item);
    }
    return fetch(item.path, {
      method: "POST",
      body: postBody(item, true),
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": token() },
    }).then(
      function (response) {
        if (response.redirected || response.status === 401) {
          signIn = true; // the log-in page: the session ended; keep the queue
          return "signin";
        }
        return response.text().then(function (html) {
          if (response.status >= 500) {
            return "wait";
          }
          signIn = false;
          if (response.ok) {
            swapIn(html);
            return "stored";
          }
          var reason;
          if (response.status === 409) {
            swapIn(html);
            reason = gettext("Another result was entered meanwhile.");
          } else if (response.status === 400) {
            swapIn(html);
            reason = reasonIn(html, gettext("The server refused it."));
          } else if (response.status === 403) {
            reason = gettext("You may no longer enter results at this event.");
          } else if (response.status === 404) {
            reason = gettext("This table is no longer in the round (the pairings changed).");
          } else {
            reason = refusedWith(response.status);
          }
          return put("settle", {
            event: SLUG,
            table: item.table,
            number: item.number,
            label: item.label,
            hhmm: item.hhmm,
            status: response.status,
            reason: reason,
          }).then(function () {
            return "settled";
          });
        });
      },
      function () {
        return "wait";
      },
    );
  }

  function flushOnce() {
    return allOf("queue", SLUG).then(function (items) {
      items = ours(items);
      queue = items;
      render();
      if (!items.length || navigator.onLine === false) {
        return null;
      }
      var item = items[0];
      return send(item).then(function (outcome) {
        if (outcome === "signin") {
          render();
          return null;
        }
        if (outcome === "wait") {
          serverDown = true;
          wentOffline();
          if (item.kind === "player" && !item.late) {
            // From now on it waited: sent with its time and version, refused for the player.
            item.late = true;
            return put("queue", item).then(function () {
              return null;
            });
          }
          return null;
        }
        return removeSent(item).then(function () {
          serverDown = false;
          return flushOnce();
        });
      });
    });
  }

  // One flush at a time, across this phone's tabs too (a reload or a second tab while one is
  // sending waits for it, then finds the queue shorter).
  function flush() {
    if (flushing) {
      return flushing;
    }
    var run = function () {
      return flushOnce();
    };
    var locked =
      navigator.locks && navigator.locks.request
        ? navigator.locks.request("guildhall-offline-flush", run)
        : run();
    flushing = Promise.resolve(locked)
      .catch(function (error) {
        window.console.warn(error);
      })
      .then(function () {
        flushing = null;
        return reload();
      })
      .then(function () {
        if (!queue.length && !offline()) {
          window.localStorage.removeItem(SINCE_KEY);
          render();
        }
        if (KIND === "player" && landing && !queue.length) {
          // The page as it is now, with what the tap did (or the refusal in the banner).
          var where = landing;
          landing = null;
          if (settle.length) {
            render();
          } else {
            window.location.assign(where);
          }
        }
      });
    return flushing;
  }

  // --- What the phone keeps ------------------------------------------------------------------

  // After the server sent something new: the worker keeps the page as it is now, and the
  // console keeps the event's state; at most every KEEP_SECONDS, the last change included.
  function keep() {
    var wait = keptAt + KEEP_SECONDS * 1000 - Date.now();
    if (wait > 0) {
      if (!keepTimer) {
        keepTimer = window.setTimeout(function () {
          keepTimer = null;
          keep();
        }, wait);
      }
      return;
    }
    if (offline()) {
      return;
    }
    keptAt = Date.now();
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      var pages = [window.location.href];
      var paper = banner.getAttribute("data-paper-url");
      if (paper) {
        pages.push(paper); // the paper pack as the round is now, for printing offline
      }
      navigator.serviceWorker.controller.postMessage({ keep: pages });
    }
    keepState();
  }

  function fetchJson(url) {
    if (!url) {
      return Promise.resolve(null);
    }
    return fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
    }).then(function (response) {
      return response.ok && !response.redirected ? response.json() : null;
    });
  }

  // The event's state and the next round's pairing snapshot (for the page that pairs without
  // the server), fetched together so that they tell of the same moment.
  function keepState() {
    if (STATE_URL && !offline()) {
      Promise.all([fetchJson(STATE_URL), fetchJson(SNAPSHOT_URL)])
        .then(function (both) {
          if (both[0]) {
            var kept = { event: SLUG, state: both[0], snapshot: both[1], kept: Date.now() };
            return put("state", kept).then(render);
          }
          return null;
        })
        .catch(function () {});
    }
  }

  function register() {
    var manifest = banner.getAttribute("data-manifest");
    if (manifest && !document.querySelector('link[rel="manifest"]')) {
      var link = document.createElement("link");
      link.rel = "manifest";
      link.href = manifest;
      document.head.appendChild(link);
    }
    var worker = banner.getAttribute("data-service-worker");
    if (!worker || !navigator.serviceWorker) {
      return;
    }
    navigator.serviceWorker
      .register(worker, { scope: banner.getAttribute("data-scope") || "/events/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        // The page opened before the worker ran: have it keep this page and its files now.
        var files = [window.location.href];
        document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon]").forEach(
          function (el) {
            files.push(el.src || el.href);
          },
        );
        // The console: the page that pairs without the server, and its code (13 MB, kept
        // once: the worker asks the network only for what it does not hold yet).
        ["data-pair-url", "data-paper-url"].forEach(function (name) {
          if (banner.getAttribute(name)) {
            files.push(banner.getAttribute(name));
          }
        });
        try {
          files = files.concat(JSON.parse(banner.getAttribute("data-keep") || "[]"));
        } catch (error) {
          window.console.warn(error);
        }
        if (!copy && registration.active) {
          registration.active.postMessage({ keep: files });
        }
      })
      .catch(function (error) {
        window.console.warn("No offline copy on this phone:", error);
      });
  }

  // --- htmx and the network ------------------------------------------------------------------

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (isResult(detail)) {
      var table = Number(REPORT.exec(detail.path)[1]);
      var waiting = queue.some(function (item) {
        return item.table === table;
      });
      // Offline, or this table already waits in the queue (its new result goes after it);
      // a phone that cannot keep data (no IndexedDB) sends it as it would online.
      if (kept && (offline() || waiting)) {
        event.preventDefault();
        enqueue(detail).then(function () {
          if (!offline()) {
            flush();
          }
        });
      }
      return;
    }
    if (navigator.onLine === false && detail.verb === "get") {
      event.preventDefault(); // no poll while the phone says it has no network
    }
  });

  // Offline, a plain form of the console (pair, end the round, register, drop...) would open
  // the browser's own error page: it is held back, and the banner says why. (The result cards
  // post through htmx, above, and are queued.)
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (KIND !== "console" || !offline() || form.hasAttribute("hx-post")) {
        return;
      }
      if ((form.getAttribute("method") || "get").toLowerCase() !== "post") {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      held = gettext("Not sent: this needs the site. Try again when it answers.");
      render();
    },
    true,
  );

  // A player's report or confirmation (the forms of their page that post `action`) always goes
  // through the queue on the phone, after any that wait, and is sent from there at once: a tap
  // the page made while it still believed the server was there (its next poll had not told it
  // otherwise) waits on the phone instead of opening the browser's error page. A tap made
  // online is sent as an ordinary tap (`late` false: a refusal shows the page's message), one
  // made offline or whose first try had no answer says when it was tapped. A phone that cannot
  // keep data (no IndexedDB) posts the form as it always did.
  function reportItem(form, submitter) {
    var live = document.getElementById("my-live");
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    var params = [];
    data.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") {
        params.push([key, String(value)]);
      }
    });
    var action = data.get("action");
    var text = submitter ? submitter.textContent.replace(/\s+/g, " ").trim() : "";
    // What the report says, not who sent it: a pod's button is the winner's name ("Ann won"),
    // a match's the games, named with the players ("Ann – Bob 2-0"; the form's template), a
    // confirmation the result it confirms (its button's label).
    var own = submitter && submitter.getAttribute("data-report-label");
    var shape = form.getAttribute("data-report-label");
    var said = own || (shape && text ? shape.replace("{result}", text) : text);
    var now = Date.now();
    return {
      event: SLUG,
      kind: "player",
      table: live ? Number(live.getAttribute("data-table-id")) : 0,
      version: live ? live.getAttribute("data-version") || "" : "",
      // form.action would be its <input name="action">: the attribute is the address.
      path: new URL(form.getAttribute("action") || "", window.location.href).pathname,
      params: params,
      action: action === "confirm" ? "confirm" : "report",
      label: said || gettext("a result"),
      tapped: now,
      hhmm: hhmm(now),
      late: offline(),
    };
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (KIND !== "player" || !kept || !form.querySelector("input[name=action]")) {
      return;
    }
    if (!form.closest("#my-live")) {
      return;
    }
    event.preventDefault();
    var item = reportItem(form, event.submitter);
    form.querySelectorAll("button").forEach(function (button) {
      button.disabled = true; // one tap is one report
    });
    enqueued = enqueued
      .then(function () {
        return put("queue", item);
      })
      .then(reload)
      .then(function () {
        if (!offline()) {
          return flush();
        }
        return null;
      })
      .catch(function (error) {
        window.console.warn("This report could not be kept on the phone:", error);
      });
  });

  document.addEventListener("htmx:sendError", function (event) {
    serverDown = true;
    wentOffline();
    var config = event.detail.requestConfig;
    if (kept && config && isResult(config)) {
      enqueue(config);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500) {
      cameBack();
      if (xhr.status === 200) {
        keep();
      }
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (KIND === "console") {
      decorate();
    }
  });

  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", function () {
    render();
    flush();
  });

  window.setInterval(function () {
    if (queue.length && navigator.onLine !== false) {
      flush();
    }
    render();
  }, RETRY_SECONDS * 1000);

  // --- For other scripts ----------------------------------------------------------------------

  window.GuildhallOffline = {
    /** The event this page is about (its slug), and whether this is the TO's console. */
    event: SLUG,
    kind: KIND,
    /** True while the phone has no network or the server does not answer. */
    isOffline: offline,
    /** When the phone went offline (a Date), or null. */
    offlineSince: since,
    /** The event's state as last fetched from the server (selectors/offline.py):
     * a Promise of {event, state, kept} or undefined. */
    eventState: function (slug) {
      return tx("state", "readonly", function (s, done) {
        var req = s.get(slug || SLUG);
        req.onsuccess = function () {
          done(req.result);
        };
      });
    },
    /** The results waiting to be sent, in order: a Promise of [{table, number, version,
     * params: [[name, value]...], label, tapped, hhmm}]. */
    queued: function (slug) {
      return allOf("queue", slug || SLUG).then(ours);
    },
    /** The results the server refused or found in conflict, kept for the TO. */
    toSettle: function (slug) {
      return allOf("settle", slug || SLUG).then(ours);
    },
    /** Send the queue now (a Promise; a second call while sending returns the same one). */
    flush: flush,
    /** Call `fn` whenever the queue, the state or the connection changes. */
    onChange: function (fn) {
      listeners.push(fn);
    },
  };

  if (navigator.onLine === false) {
    wentOffline();
  }
  register();
  reload()
    .then(function () {
      if (!offline() && queue.length) {
        flush();
      }
      keepState();
    })
    .catch(function (error) {
      window.console.warn(error);
    });
})();
