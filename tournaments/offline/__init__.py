"""The offline room: what lets the TO's console and the players' own pages outlast the store's
Wi-Fi or the server going away (the installable web app's manifest and service worker). The
queue of results tapped offline lives on the phone (static/tournaments/offline/offline.js) and
is sent to the console's own result address, whose table versions make it store once."""
