// Pair the next round on the TO's phone when the server cannot be reached (issue 34).
//
// While the server answers, the page keeps the event's pairing snapshot on the phone
// (localStorage). Pyodide (served from this site's static files, installed by `make assets`)
// starts at once and unpacks the pure tournament code (domain.zip); once every table of the
// round being played has a result (the server's, or one tapped here), "Pair" runs
// `tournaments.domain.nextround.pair_offline`: the same standings and pairing, with the same
// seed, that the server runs. The round is kept on the phone until the server has it: "Send"
// posts it (and the results tapped here) when the server answers again, also by itself when
// the browser says it is back online. window.guildhallOffline exposes the steps to tests and to
// the offline queue (its results can be handed in with `setResults`).
//
// With the console's offline script on the page (window.GuildhallOffline, offline.js): a page
// opened for the first time offline starts from the snapshot the console kept; a pod's winner
// or a match's result tapped on the console offline (waiting in its queue) counts here as the
// table's result, and before the round is sent the queue goes first, so the server stores each
// of those results from the console's queue, once, with the table version it was tapped against.

// The page's catalogue (kept by the service worker for the outage) translates, through the
// site's one fallback, guildhall/i18n.js, loaded before this script: English without it.
const { gettext, ngettext, fill, note } = window.GuildhallI18n;

const root = document.getElementById("offline-pair");
const $ = (selector) => root.querySelector(selector);
const key = `guildhall:offline-pair:${root.dataset.event}`;
// A pod event's sentences are its own, not a 1v1 event's with another noun put in: the noun's
// gender and plural forms differ by language (the page says which, data-format).
const pods = root.dataset.format === "pods";

// Whether the last request to the server was answered: while it is, results are entered on the
// console as usual, and this page only waits for them.
let reachable = false;
let state = JSON.parse(localStorage.getItem(key) || "{}");
// state: {snapshot, fetchedAt, results: {table: {winner} | {draw: true}}, paired, sent}
state.results = state.results || {};

function save() {
  localStorage.setItem(key, JSON.stringify(state));
}

function say(text) {
  $(".offline-message").textContent = text;
}

// A time of the night as every page writes it: 24-hour, on the store's clock (the page's
// data-time-zone), whatever the phone's own zone and 12/24-hour setting. The one formatter is
// static/tournaments/clock.js's, loaded by the offline banner this page includes before it.
function clock(iso) {
  return window.GuildhallClock.hhmm(iso, root.dataset.timeZone);
}

function name(player) {
  const names = (state.snapshot && state.snapshot.names) || {};
  return names[String(player)] || fill(gettext("Player %(player)s"), { player });
}

// --- Python ----------------------------------------------------------------------------------

async function startPython() {
  // The loader's address may carry the deploy's hash (pyodide.1a2b3c.mjs); the files it loads
  // next to it are the unhashed ones, which the static files keep too.
  const loader = root.dataset.pyodide;
  const { loadPyodide } = await import(loader);
  const pyodide = await loadPyodide({ indexURL: loader.slice(0, loader.lastIndexOf("/") + 1) });
  const zip = await (await fetch(root.dataset.domain)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/guildhall" });
  pyodide.runPython("import sys; sys.path.insert(0, '/guildhall')");
  const pairOffline = pyodide.pyimport("tournaments.domain.nextround").pair_offline;
  return (snapshot, results) => JSON.parse(pairOffline(JSON.stringify(snapshot), JSON.stringify(results)));
}

// Milliseconds since the page's navigation started: the pairing code ready, the round paired,
// and how long the pairing itself took.
const timings = {};
const python = startPython().then((pair) => {
  timings.ready = performance.now();
  render();
  return pair;
});

// --- the console's queue and kept snapshot ---------------------------------------------------

const shared = window.GuildhallOffline;
// Results waiting in the console's queue: [{number, params}], and each entry's player id (the
// console's buttons name entries), from the state the console kept.
let queuedItems = [];
let entryPlayers = {};
// A 1v1 card's code ("2-0", "1-2-1", "id"): first seat's game wins, second's, drawn games.
const MATCH_CODE = /^([0-9])-([0-9])(?:-([0-9]))?$/;

// One queued tap as the pairing reads it ({winner}, {draw: true} or a match's {games}), against
// the table's players in seat order; null for what it cannot read (it stays missing: the TO
// taps it here).
function queuedResult(params, players) {
  if (params.result === "draw") return { draw: true };
  if (params.result === "id") return { games: [0, 0, 3] }; // MTR 2.4: an intentional draw is 0-0-3
  if (params.winner) {
    const player = entryPlayers[params.winner];
    return player === undefined ? null : { winner: player };
  }
  // A match's code keeps its game wins, as the server stores them (nextround.phone_result).
  const games = MATCH_CODE.exec(params.result || "");
  if (!games || !players || players.length !== 2) return null;
  const counted = games.slice(1).map((g) => Number(g || 0));
  return counted.some(Boolean) ? { games: counted } : null;
}

async function readQueue() {
  if (!shared) return;
  try {
    const [items, kept] = await Promise.all([shared.queued(), shared.eventState()]);
    const players = {};
    for (const entry of (kept && kept.state && kept.state.entries) || []) {
      players[String(entry.id)] = entry.player_id;
    }
    entryPlayers = players;
    queuedItems = items.map((item) => ({ number: item.number, params: Object.fromEntries(item.params) }));
    // A page opened offline for the first time, or later than the console's last copy.
    if (kept && kept.snapshot && !reachable) {
      const newer = !state.fetchedAt || new Date(state.fetchedAt).getTime() < kept.kept;
      if (newer && !(state.paired && !state.sent)) {
        adopt(kept.snapshot, new Date(kept.kept).toISOString());
        save();
      }
    }
  } catch (error) {
    console.warn(error);
  }
  render();
}

function adopt(snapshot, when) {
  const changed = !state.snapshot || state.snapshot.round !== snapshot.round;
  state.snapshot = snapshot;
  state.fetchedAt = when;
  if (changed && !(state.paired && !state.sent)) {
    state.results = {};
    state.paired = null;
    state.sent = null;
  }
}

function allResults() {
  const seats = {};
  for (const table of openTables()) seats[String(table.number)] = table.players;
  const queued = {};
  for (const item of queuedItems) {
    const result = queuedResult(item.params, seats[String(item.number)]);
    if (result) queued[String(item.number)] = result;
  }
  return { ...queued, ...state.results };
}

// --- the snapshot ----------------------------------------------------------------------------

async function refresh() {
  try {
    const response = await fetch(root.dataset.snapshotUrl, {
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (!response.ok) throw new Error(String(response.status));
    const snapshot = await response.json();
    reachable = true;
    adopt(snapshot, new Date().toISOString());
    save();
  } catch (error) {
    // The server cannot be reached: the phone goes on with what it holds.
    reachable = false;
  }
  render();
}

function openTables() {
  const opened = state.snapshot && state.snapshot.open;
  return opened ? opened.tables : [];
}

function missing() {
  const known = allResults();
  return openTables().filter(
    (table) => !table.result && table.players.length > 1 && !known[String(table.number)],
  );
}

// --- drawing ---------------------------------------------------------------------------------

function render() {
  const status = $(".offline-status");
  if (!state.snapshot) {
    status.textContent = navigator.onLine
      ? gettext("Loading the event…")
      : gettext("This phone has not kept this event yet: open this page once while the server answers.");
    return;
  }
  const waiting = missing().map((table) => table.number);
  const parts = [
    fill(gettext("Round %(round)s"), { round: state.snapshot.round }),
    fill(gettext("the event as of %(time)s"), { time: clock(state.fetchedAt) }),
    navigator.onLine && reachable ? gettext("online") : gettext("offline"),
  ];
  if (timings.ready === undefined) parts.push(gettext("starting the pairing code…"));
  if (reachable && waiting.length && !state.paired) {
    const count = waiting.length;
    let format;
    if (pods) {
      // Translators: %(tables)s are the numbers of the pods still without a result ("3, 5").
      format = ngettext("waiting for the result of pod %(tables)s (enter it on the console)",
        "waiting for the results of %(count)s pods: %(tables)s (enter them on the console)",
        count,
      );
    } else {
      // Translators: %(tables)s are the numbers of the tables still without a result ("3, 5").
      format = ngettext("waiting for the result of table %(tables)s (enter it on the console)",
        "waiting for the results of %(count)s tables: %(tables)s (enter them on the console)",
        count,
      );
    }
    parts.push(fill(format, { count, tables: waiting.join(", ") }));
  }
  status.textContent = parts.join(" · ");
  drawMissing();
  const button = $(".offline-pair-button");
  button.textContent = fill(gettext("Pair round %(round)s on this phone"), { round: state.snapshot.round });
  button.hidden = Boolean(state.paired);
  button.disabled = timings.ready === undefined || !state.snapshot.pairable || missing().length > 0;
  if (!state.snapshot.pairable) say(state.snapshot.why);
  drawRound();
}

function drawMissing() {
  const list = $(".offline-missing-list");
  const tables = missing();
  $(".offline-missing").hidden = tables.length === 0 || Boolean(state.paired) || reachable;
  list.replaceChildren(
    ...tables.map((table) => {
      const item = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = `${tableLabel(table.number)}: `;
      item.append(label);
      for (const player of table.players) {
        item.append(resultButton(table, fill(gettext("%(player)s won"), { player: name(player) }), { winner: player }));
      }
      item.append(resultButton(table, gettext("Draw"), { draw: true }));
      return item;
    }),
  );
}

// "Table 3", "Pod 2".
function tableLabel(number) {
  return fill(pods ? gettext("Pod %(number)s") : gettext("Table %(number)s"), { number });
}

function resultButton(table, text, result) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.addEventListener("click", () => {
    state.results[String(table.number)] = result;
    save();
    render();
  });
  return button;
}

function drawRound() {
  const box = $(".offline-round");
  const paired = state.paired;
  box.hidden = !paired;
  $(".offline-upload-button").hidden = !paired || Boolean(state.sent);
  if (!paired) return;
  $(".offline-round-title").textContent = [
    fill(gettext("Round %(round)s, paired on this phone"), { round: paired.round }),
    state.sent ? gettext("on the server") : gettext("not sent yet"),
  ].join(" · ");
  $(".offline-tables").replaceChildren(
    ...paired.tables.map((players, index) => {
      const item = document.createElement("li");
      item.className = "offline-table";
      const asked = players.length === 1 && paired.input.sitting_out.includes(players[0]);
      const what = players.length === 1
        ? (asked ? gettext("Bye (asked to sit out)") : gettext("Bye"))
        : tableLabel(index + 1);
      const who = players.length === 2
        ? fill(gettext("%(first)s vs %(second)s"), { first: name(players[0]), second: name(players[1]) })
        : players.map(name).join(", ");
      // Translators: a table of the round paired on the phone: "Table 3: Ann vs Bob".
      item.textContent = fill(gettext("%(table)s: %(players)s"), { table: what, players: who });
      return item;
    }),
  );
  $(".offline-warnings").replaceChildren(
    // The pairing's warnings before translation (Note.data), written in the page's language; a
    // round paired by an earlier version kept them as text.
    ...paired.warnings.map((warning) => {
      const item = document.createElement("li");
      item.textContent = note(warning);
      return item;
    }),
  );
}

// --- pairing and sending ---------------------------------------------------------------------

async function pair() {
  const run = await python;
  const before = performance.now();
  const answer = run(state.snapshot, allResults());
  timings.pairMs = performance.now() - before;
  if (!answer.ok) {
    // The refusal in the page's language: its sentence and values as the domain raised them.
    say(note({ msgid: answer.template, plural: answer.plural, count: answer.count, params: answer.params }));
    return answer;
  }
  timings.paired = performance.now();
  state.paired = answer;
  state.sent = null;
  save();
  say(fill(gettext("Round %(round)s is paired on this phone: announce it. Send it when the server answers."), { round: answer.round }));
  render();
  return answer;
}

// One sending at a time: the "online" event, the retry below and a tap can all ask at once, and
// a second request would only hear "already on the server" and say that instead.
let uploading = null;
function upload() {
  if (!uploading) uploading = send().finally(() => { uploading = null; });
  return uploading;
}

async function send() {
  if (!state.paired || state.sent) return null;
  if (shared) {
    // The console's queued results first, each stored once with its table version; the round
    // is checked against the results the server then holds.
    await shared.flush();
    if ((await shared.queued()).length) {
      say(gettext("The results waiting on this phone are not all sent yet: the round stays on this phone."));
      return null;
    }
  }
  const token = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  let response;
  try {
    response = await fetch(root.dataset.uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({
        input: state.paired.input,
        tables: state.paired.tables,
        results: state.results,
      }),
    });
  } catch (error) {
    say(gettext("The server cannot be reached yet: the round stays on this phone."));
    return null;
  }
  const answer = await response.json().catch(() => ({ ok: false, message: gettext("The server answered in a way this page cannot read.") }));
  if (answer.ok) {
    state.sent = new Date().toISOString();
    save();
  }
  say(answer.ok ? answer.message : `${answer.message} ${gettext("The phone keeps its round.")}`);
  render();
  return answer;
}

$(".offline-pair-button").addEventListener("click", pair);
$(".offline-upload-button").addEventListener("click", upload);
window.addEventListener("online", async () => {
  await upload();
  await refresh();
});
// The server may go away with the phone's network up (no "online" event when it is back): a
// round not sent yet is tried again every RETRY_SECONDS.
const RETRY_SECONDS = 10;
setInterval(async () => {
  if (!state.paired || state.sent || uploading) return;
  if (await upload()) await refresh();
}, RETRY_SECONDS * 1000);
window.addEventListener("offline", () => {
  reachable = false;
  render();
});

window.guildhallOffline = {
  python,
  refresh,
  pair,
  upload,
  timings,
  state: () => state,
  setResults(results) {
    Object.assign(state.results, results);
    save();
    render();
  },
};

render();
refresh().then(readQueue);
if (shared) shared.onChange(() => { readQueue(); });
