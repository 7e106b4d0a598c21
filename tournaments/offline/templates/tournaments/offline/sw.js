// Guildhall's service worker (tournaments/offline/views.py serves it, scope /events/): the TO's
// console and the players' own pages keep their last good copy on the phone, so that a page
// opened while the store's Wi-Fi or the server is gone shows what it last knew instead of an
// error. It never answers a write: results tapped offline wait in the page's own queue
// (static/tournaments/offline/offline.js, IndexedDB) and are sent by the page.
//
// - A page of the console (/events/<slug>/run/), its page that pairs a round without the server
//   (/events/<slug>/run/offline/), its paper pack (/events/<slug>/run/paper/) or a player's own
//   page (/events/<slug>/me/...):
//   network first; a good answer (200, HTML) replaces the copy; no answer within a few seconds,
//   or none at all, serves the copy, marked `data-offline-copy` on its <html> so the page says
//   "as of".
// - Static files (/static/): the copy first, refreshed behind it. The console asks for the
//   pairing code (Pyodide, some 13 MB) to be kept on its first visit (`keep`, below), so the
//   offline pairing page starts without the network even if it was never opened before.
// - The scripts' catalogue of the language the worker was fetched in (CATALOG, /jsi18n/<lang>.js
//   with the release) is kept on install, and every catalogue a page loads is served like a
//   static file: the offline round reads the language the console was opened in.
// - A page of the console the phone kept no copy of, with no network: a short page that says
//   so (OFFLINE_PAGE, written in the worker's language by its view) instead of the browser's
//   error.
// - Everything else (the live polls, posts, other pages) goes to the network untouched.
// - Logging out (a POST to the log-out address) forgets every copy.
"use strict";

var VERSION = "{{ version }}";
var PAGES = "guildhall-pages-v1";
var STATIC = "guildhall-static-" + VERSION;
var LOGOUT_PATH = "{{ logout }}";
var NETWORK_SECONDS = 4;
var CATALOG = "{{ catalog }}";
var CATALOG_PREFIX = "{{ catalog_prefix }}";
var OFFLINE_PAGE = {{ offline_page|safe }};
var PAGE = /^\/events\/[^/]+\/(run\/(offline\/|paper\/)?(\?.*)?$|me\/)/;

self.addEventListener("install", function (event) {
  self.skipWaiting();
  if (CATALOG) {
    event.waitUntil(
      caches
        .open(STATIC)
        .then(function (cache) {
          return cache.match(CATALOG).then(function (hit) {
            return hit || cache.add(new Request(CATALOG, { credentials: "same-origin" }));
          });
        })
        .catch(function () {}), // no network now: the page's own `keep` asks again
    );
  }
});

// Kept like a static file: the files under /static/ and the scripts' catalogues.
function isKept(url) {
  return (
    url.pathname.indexOf("{{ static_url }}") === 0 ||
    (CATALOG_PREFIX !== "" && url.pathname.indexOf(CATALOG_PREFIX) === 0)
  );
}

function offlinePage() {
  return new Response(OFFLINE_PAGE, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("guildhall-static-") === 0 && name !== STATIC;
            })
            .map(function (name) {
              return caches.delete(name);
            }),
        );
      })
      .then(function () {
        return self.clients.claim();
      }),
  );
});

function isPage(url) {
  return url.origin === self.location.origin && PAGE.test(url.pathname);
}

function keepPage(request, response) {
  var type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || type.indexOf("text/html") !== 0 || response.redirected) {
    return Promise.resolve();
  }
  var copy = response.clone();
  return caches.open(PAGES).then(function (cache) {
    return cache.put(request.url, copy);
  });
}

function markedCopy(response) {
  // The copy says it is one: the page's script reads the attribute and shows "as of".
  return response.text().then(function (text) {
    var marked = text.replace("<html", '<html data-offline-copy="1"');
    return new Response(marked, {
      status: 200,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  });
}

function pageFromCopy(request) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(request.url).then(function (hit) {
      return hit || cache.match(request.url, { ignoreSearch: true });
    });
  });
}

function networkFirst(event) {
  var request = event.request;
  var network = fetch(request);
  var timer;
  var late = new Promise(function (resolve) {
    timer = setTimeout(resolve, NETWORK_SECONDS * 1000);
  });
  var answered = network.then(function (response) {
    clearTimeout(timer);
    event.waitUntil(keepPage(request, response));
    return response;
  });
  answered.catch(function () {}); // a late failure, after the copy was served, is no error
  var fallback = function () {
    return pageFromCopy(request).then(function (copy) {
      return copy ? markedCopy(copy) : network;
    });
  };
  return Promise.race([answered, late.then(fallback)]).catch(function () {
    clearTimeout(timer);
    return pageFromCopy(request).then(function (copy) {
      if (copy) {
        return markedCopy(copy);
      }
      if (OFFLINE_PAGE) {
        return offlinePage();
      }
      throw new TypeError("offline and no copy of " + request.url);
    });
  });
}

function staticFirst(event) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(event.request).then(function (hit) {
      var fresh = fetch(event.request).then(function (response) {
        if (response.status === 200) {
          cache.put(event.request, response.clone());
        }
        return response;
      });
      if (hit) {
        event.waitUntil(fresh.catch(function () {}));
        return hit;
      }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST" && url.pathname === LOGOUT_PATH) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") {
    return;
  }
  if (request.mode === "navigate" && isPage(url)) {
    event.respondWith(networkFirst(event));
  } else if (isKept(url)) {
    event.respondWith(staticFirst(event));
  }
});

// A page just opened (before this worker controlled it) asks for itself and its files to be
// kept: `{keep: [url, ...]}`.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!Array.isArray(data.keep)) {
    return;
  }
  event.waitUntil(
    Promise.all(
      data.keep.map(function (href) {
        var url = new URL(href, self.location.origin);
        if (url.origin !== self.location.origin) {
          return null;
        }
        var request = new Request(url.href, { credentials: "same-origin" });
        if (isPage(url)) {
          return fetch(request)
            .then(function (response) {
              return keepPage(request, response);
            })
            .catch(function () {});
        }
        if (isKept(url)) {
          return caches.open(STATIC).then(function (cache) {
            return cache.match(request).then(function (hit) {
              return hit || cache.add(request).catch(function () {});
            });
          });
        }
        return null;
      }),
    ),
  );
});
