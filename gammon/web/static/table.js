"use strict";
// A table's page: draws what the server sends and sends back the seat's choice. The
// server decides what is legal; this page only offers what it was told is legal.
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const storeKey = `gammon-token-${tableId}`;
const token = params.get("token") || localStorage.getItem(storeKey) || "";
if (params.get("token")) localStorage.setItem(storeKey, params.get("token"));

let socket = null;
let table = null;        // the last state the server sent
let sent = false;        // an action is on its way: no second one
let pick = null;         // a play being picked checker by checker
let retry = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  $("connection").textContent = "connecting...";
  socket.onopen = () => { $("connection").textContent = "connected"; retry = 500; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("connection").textContent = "connection lost: reconnecting...";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "state") {
    table = message.table;
    sent = false;
    pick = null;
    draw();
  } else if (message.type === "error") {
    $("error").textContent = message.message;
  } else if (message.type === "preview" && message.svg) {
    $("board").innerHTML = message.svg;
    markBoard();
  }
}

function act(payload) {
  if (sent) return;
  sent = true;
  $("error").textContent = "";
  for (const button of document.querySelectorAll("#controls button")) button.disabled = true;
  send({ type: "act", version: table.version, ...payload });
}

// --- drawing ------------------------------------------------------------------------

function draw() {
  document.title = `gammon: ${table.variant}`;
  $("title").textContent = `${table.variant}, ${table.kind}` + (table.game ? `, game ${table.game}` : "");
  $("board").innerHTML = table.board || "";
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of table.seats) {
    const li = document.createElement("li");
    let text = `${seat.seat + 1}. ${seat.name}`;
    if (seat.seat === table.you) { text += " (you)"; li.className = "you"; }
    else if (seat.human && !seat.taken) text += " (free seat)";
    if (table.pips) text += ` — pips ${table.pips[seat.seat]}`;
    li.textContent = text;
    seats.appendChild(li);
  }
  $("info").textContent = (table.info || []).join("; ");
  const lines = $("lines");
  lines.replaceChildren();
  for (const line of table.lines) {
    const li = document.createElement("li");
    li.textContent = line.seat === null ? line.text : `${table.seats[line.seat].name}: ${line.text}`;
    lines.appendChild(li);
  }
  lines.scrollTop = lines.scrollHeight;
  const record = $("record");
  record.replaceChildren();
  for (const line of table.record) {
    const li = document.createElement("li");
    li.textContent = line.seat === null ? line.text : `${table.seats[line.seat].name}: ${line.text}`;
    record.appendChild(li);
  }
  record.scrollTop = record.scrollHeight;
  $("position").textContent = table.position_id || "";
  $("fair").textContent = table.fair.seed
    ? `Dice seed ${table.fair.seed} (SHA-256 ${table.fair.commitment}); check every throw with gammon verify.`
    : `Dice committed to SHA-256 ${table.fair.commitment}; the seed is shown when play is over.`;
  drawQuestion();
}

function drawQuestion() {
  const controls = $("controls");
  controls.replaceChildren();
  const question = table.question;
  if (table.result) $("question").textContent = table.result;
  if (!question) {
    if (!table.result) $("question").textContent = table.over ? "Play is over." : "";
    if (table.over) {
      for (const [href, text] of [[`/t/${table.id}/review`, "review the game"],
                                  [`/api/tables/${table.id}/record`, "the table's record (with the dice seed)"]]) {
        const link = document.createElement("a");
        link.href = href;
        link.textContent = text;
        link.style.marginRight = "1.2rem";
        controls.appendChild(link);
      }
    }
    markBoard();
    return;
  }
  const mine = question.seat === table.you;
  $("question").textContent = mine ? `Your turn: ${question.text}` : `${question.name}: ${question.text}`;
  if (!mine || !table.actions) { markBoard(); return; }
  const plays = table.actions.filter((a) => a.steps);
  if (question.kind === "play" && plays.length) {
    pick = { plays: plays.map((p) => ({ ...p, used: [] })), path: [], source: null,
             mine: { ...(table.mine || {}) } };
    const allEmpty = plays.length === 1 && plays[0].steps.length === 0;
    if (allEmpty) button(`Play: ${plays[0].text}`, () => act({ index: plays[0].index }), true);
    button("Undo", undo, false, "undo");
    button("Confirm", confirmPlay, true, "confirm");
    const list = document.createElement("details");
    list.innerHTML = "<summary>or choose from the list</summary>";
    for (const play of plays) {
      const b = document.createElement("button");
      b.textContent = play.text;
      b.onclick = () => act({ index: play.index });
      list.appendChild(b);
    }
    controls.appendChild(list);
  }
  const resigns = document.createElement("details");
  resigns.innerHTML = "<summary>resign...</summary>";
  for (const action of table.actions) {
    if (action.steps) continue;
    if (action.resign !== undefined) {
      const b = document.createElement("button");
      b.textContent = action.text;
      b.onclick = () => act({ resign: action.resign });
      resigns.appendChild(b);
    } else {
      button(action.text, () => act({ index: action.index }), true);
    }
  }
  if (resigns.children.length > 1) controls.appendChild(resigns);
  refreshPick();
}

function button(text, handler, primary, id) {
  const b = document.createElement("button");
  b.textContent = text;
  if (primary) b.className = "primary";
  if (id) b.id = id;
  b.onclick = handler;
  $("controls").appendChild(b);
  return b;
}

// --- picking a play checker by checker ---------------------------------------------------

function chains(play, from) {
  // Every spot reachable from ``from`` through ``play``'s unused moves, with the moves.
  const found = [];
  const walk = (at, used) => {
    play.steps.forEach((step, k) => {
      if (used.includes(k) || play.used.includes(k) || step[0] !== at) return;
      const next = [...used, k];
      found.push({ to: step[1], moves: next });
      walk(step[1], next);
    });
  };
  walk(from, []);
  return found;
}

function sources() {
  // Where a checker of the mover stands now and some play moves one from.
  const set = new Set();
  for (const play of pick.plays) {
    play.steps.forEach((s, k) => {
      if (!play.used.includes(k) && (pick.mine[s[0]] || 0) > 0) set.add(s[0]);
    });
  }
  return set;
}

function targets(from) {
  const set = new Set();
  for (const play of pick.plays) for (const c of chains(play, from)) set.add(c.to);
  return set;
}

function complete() {
  return pick.plays.find((p) => p.used.length === p.steps.length && p.steps.length > 0);
}

function refreshPick() {
  markBoard();
  if (!pick) return;
  const undoButton = $("undo");
  if (undoButton) undoButton.disabled = pick.path.length === 0 || sent;
  const confirmButton = $("confirm");
  if (confirmButton) {
    const done = complete();
    confirmButton.disabled = !done || sent;
    confirmButton.textContent = done ? `Confirm ${done.text}` : "Confirm";
  }
}

function markBoard() {
  const spots = document.querySelectorAll("#board [data-spot]");
  for (const spot of spots) {
    spot.classList.remove("source", "target", "picked");
    spot.onclick = null;
  }
  if (!pick || sent) return;
  const from = pick.source;
  const choices = from === null ? sources() : targets(from);
  for (const spot of spots) {
    const name = spot.dataset.spot;
    if (from !== null && name === from) {
      spot.classList.add("picked");
      spot.onclick = () => { pick.source = null; refreshPick(); };
    } else if (choices.has(name)) {
      spot.classList.add(from === null ? "source" : "target");
      spot.onclick = () => clickSpot(name);
    }
  }
}

function clickSpot(name) {
  if (pick.source === null) {
    pick.source = name;
    const only = targets(name);
    if (only.size === 1) return move(name, [...only][0]);  // one place to go: go there
    refreshPick();
    return;
  }
  move(pick.source, name);
}

function move(from, to) {
  // Keep the plays in which this checker can go from ``from`` to ``to``.
  const kept = [];
  for (const play of pick.plays) {
    const chain = chains(play, from).filter((c) => c.to === to).sort((a, b) => a.moves.length - b.moves.length)[0];
    if (chain) kept.push({ ...play, used: [...play.used, ...chain.moves] });
  }
  pick.path.push({ plays: pick.plays, mine: { ...pick.mine } });
  pick.plays = kept;
  pick.mine[from] = (pick.mine[from] || 0) - 1;
  pick.mine[to] = (pick.mine[to] || 0) + 1;
  pick.source = null;
  preview();
  refreshPick();
}

function undo() {
  if (!pick.path.length) return;
  const last = pick.path.pop();
  pick.plays = last.plays;
  pick.mine = last.mine;
  pick.source = null;
  preview();
  refreshPick();
}

function preview() {
  const play = pick.plays[0];
  if (!pick.path.length) { $("board").innerHTML = table.board; markBoard(); return; }
  send({ type: "preview", index: play.index, moves: play.used });
}

function confirmPlay() {
  const done = complete();
  if (done) act({ index: done.index });
}

$("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("position").textContent);
connect();
