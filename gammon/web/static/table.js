"use strict";
// A table's page: draws what the server sends and sends back the seat's choice. The
// server decides what is legal; this page only offers what it was told is legal.
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const storeKey = `gammon-token-${tableId}`;
// A seat link carries its token after the "#" (never sent to a server, so never in a
// proxy's log; a token in the query is not read). It is kept in this browser only once
// the server has taken it: a mistyped link must not replace a good token. A browser that
// holds a seat here keeps it: a link to another seat of this table (an opponent's own
// link, sent to make this browser play for them) only offers to change seats.
const linked = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const stored = localStorage.getItem(storeKey) || "";
let token = stored || linked;
let otherSeatLink = stored && linked !== stored ? linked : "";
let seated = "";  // the token the server last seated this page with
if (linked) history.replaceState(null, "", location.pathname);
// An invitation (/t/ID#join) offers a free seat to a browser that holds none here: the
// page shows the stakes and the seat is taken only by a click (a page of another site
// may send a visitor here; it must not seat them at a rated table on its clock).
const invited = location.hash === "#join";
if (invited) history.replaceState(null, "", location.pathname);

let socket = null;
let table = null;        // the last state the server sent
let sent = false;        // an action is on its way: no second one
let pick = null;         // a play being picked checker by checker
let ringPick = null;     // an Acedrex move being picked on the ring: {moves, source}
let retry = 500;
let clock = null;        // the clocks as the last state gave them, and when it came

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  $("connection").textContent = t("connection.connecting");
  socket.onopen = () => {
    socket.send(JSON.stringify({ type: "hello", token }));
    $("connection").textContent = t("connection.connected");
    retry = 500;
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("connection").textContent = t("connection.lost");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "state") {
    const wasMine = table && table.question && table.question.seat === table.you;
    table = message.table;
    for (const seat of table.seats) seat.name = guestName(seat);
    clock = table.clock ? { ...table.clock, at: performance.now() } : null;
    const mine = table.question && table.question.seat === table.you;
    if (mine && !wasMine) beep();
    if (token && table.you !== null) {
      seated = token;
      if (token === linked) localStorage.setItem(storeKey, token);
    }
    sent = false;
    pick = null;
    ringPick = null;
    draw();
  } else if (message.type === "error") {
    $("error").textContent = message.message;
    if (token && token !== seated && token === linked && stored && stored !== linked) {
      token = stored;  // the link's token was refused: back to the seat this browser holds
      socket.close();
    }
    if (sent) { sent = false; draw(); }  // the act was refused: choose again
  } else if (message.type === "chat") {
    showChat(message.lines);
  } else if (message.type === "preview" && message.svg) {
    showBoard(message.svg);
    markBoard();
  }
}

// The server draws the boards as SVG; they are parsed as SVG (an XML document), never as
// HTML, and the page's Content-Security-Policy runs no script that might be in one.
const parser = new DOMParser();
function showBoard(svg) {
  const board = $("board");
  if (!svg) { board.replaceChildren(); return; }
  const doc = parser.parseFromString(svg, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg") { board.replaceChildren(); return; }
  board.replaceChildren(document.importNode(root, true));
}

function act(payload) {
  if (sent) return;
  sent = true;
  $("error").textContent = "";
  $("hint").textContent = "";
  for (const button of document.querySelectorAll("#controls button")) button.disabled = true;
  send({ type: "act", version: table.version, ...payload });
}

// --- drawing ------------------------------------------------------------------------

function draw() {
  // A match of several variants in turn (tavli) names itself, then the game being played.
  const variantName = table.rotation
    ? `${serverWord("variant", table.rotation.name)}: ${serverWord("variant", table.variant)}`
    : serverWord("variant", table.variant);
  document.title = `gammon: ${variantName}`;
  $("title").textContent = `${variantName}, ${t(`create.kind.${table.kind}`)}` + (table.game ? ", " + t("table.game", { game: table.game }) : "");
  showBoard(table.board);
  slide(table.last_play);
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of table.seats) {
    const li = document.createElement("li");
    let text = `${seat.seat + 1}. ${seat.name}`;
    if (seat.seat === table.you) { text += ` (${t("table.you")})`; li.className = "you"; }
    else if (seat.human && !seat.taken) text += ` (${t("table.free_seat")})`;
    if (table.pips) text += " — " + t("table.pips", { pips: table.pips[seat.seat] });
    li.textContent = text;
    seats.appendChild(li);
  }
  $("info").textContent = (table.info || []).join("; ") + (table.rated ? ` (${t("create.rated")})` : "");
  $("chat-title").textContent = t(table.you === null ? "chat.spectators" : "chat.players");
  $("chat-form").hidden = table.over;  // the server keeps no chat of a finished table
  $("chat-closed").hidden = !table.over;
  const free = table.seats.some((s) => s.human && !s.taken);
  $("invite").hidden = !(free && table.you !== null && !table.over && !table.rematch_of);
  offerSeat(free);
  offerOtherSeat();
  const lines = $("lines");
  lines.replaceChildren();
  for (const line of table.lines) {
    const li = document.createElement("li");
    const text = narration(line);
    li.textContent = line.seat === null ? text : `${table.seats[line.seat].name}: ${text}`;
    lines.appendChild(li);
  }
  lines.scrollTop = lines.scrollHeight;
  const record = $("record");
  record.replaceChildren();
  for (const line of table.record) {
    const li = document.createElement("li");
    const text = narration(line);
    li.textContent = line.seat === null ? text : `${table.seats[line.seat].name}: ${text}`;
    record.appendChild(li);
  }
  record.scrollTop = record.scrollHeight;
  $("position").textContent = table.position_id || "";
  $("fair").textContent = table.fair.seed
    ? t("table.fair.seed", { seed: table.fair.seed, commitment: table.fair.commitment })
    : t("table.fair.committed", { commitment: table.fair.commitment });
  drawQuestion();
}

const autoroll = "gammon:autoroll";
$("autoroll").checked = localStorage.getItem(autoroll) === "1";
$("autoroll").onchange = () => {
  localStorage.setItem(autoroll, $("autoroll").checked ? "1" : "0");
  if ($("autoroll").checked && table) drawQuestion();
};

function drawQuestion() {
  const controls = $("controls");
  controls.replaceChildren();
  const question = table.question;
  $("autoroll-label").hidden = table.kind === "game";  // no cube in a single game
  if (table.result) { $("question").textContent = table.result; announce(table.result); }
  if (!question) {
    if (!table.result) {
      $("question").textContent = !table.over ? "" : table.closed ? t("table.over_because", { why: table.closed }) : t("table.over");
    }
    if (table.over) {
      if (table.tournament) {
        const back = document.createElement("a");
        back.href = `/tournaments/${encodeURIComponent(table.tournament)}`;
        back.textContent = t("table.tournament");
        back.id = "tournament";
        controls.appendChild(back);
      } else if (table.you !== null) {
        button(t(table.rematch ? "table.join_rematch" : "table.rematch"), rematch, true, "rematch");
      }
      const links = [[`/t/${table.id}/review`, t("table.review")],
                     [`/api/tables/${table.id}/record?download=1`, t("table.json")]];
      if (table.mat) links.push([`/api/tables/${table.id}/match.mat`, t("table.mat")]);
      for (const [href, text] of links) {
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
  const asked = questionText(question);
  $("question").textContent = mine ? t("table.your_turn", { question: asked })
    : `${table.seats[question.seat].name}: ${asked}`;
  announce($("question").textContent);
  if (!mine || !table.actions) { markBoard(); return; }
  const roll = table.actions.find((a) => a.text === "roll");
  if (roll && $("autoroll").checked && table.actions.some((a) => a.text === "double")) {
    act({ index: roll.index });  // the person asked not to be offered the cube each turn
    return;
  }
  const plays = table.actions.filter((a) => a.steps);
  if (question.kind === "play" && plays.length) {
    pick = { plays: plays.map((p) => ({ ...p, used: [] })), path: [], source: null,
             mine: { ...(table.mine || {}) } };
    const allEmpty = plays.length === 1 && plays[0].steps.length === 0;
    if (allEmpty) button(t("table.play", { play: serverWord("action", plays[0].text) }), () => act({ index: plays[0].index }), true);
    button(t("table.undo"), undo, false, "undo");
    button(t("table.confirm"), confirmPlay, true, "confirm");
    const list = details(t("table.list"));
    for (const play of plays) {
      const b = document.createElement("button");
      b.textContent = serverWord("action", play.text);
      b.onclick = () => act({ index: play.index });
      list.appendChild(b);
    }
    controls.appendChild(list);
  }
  const ringMoves = table.actions.filter((a) => a.from !== undefined);
  const ringList = details(t("table.list"));
  if (ringMoves.length) ringPick = { moves: ringMoves, source: null };
  const resigns = details(t("table.resign"));
  for (const action of table.actions) {
    if (action.steps) continue;
    if (action.from !== undefined) {  // played on the ring; the list stays for keyboards
      const b = document.createElement("button");
      b.textContent = action.text;
      b.onclick = () => act({ index: action.index });
      ringList.appendChild(b);
      continue;
    }
    if (action.resign !== undefined) {
      const b = document.createElement("button");
      b.textContent = serverWord("action", action.text);
      b.onclick = confirmFirst(b, () => act({ resign: action.resign }));
      resigns.appendChild(b);
    } else if (/^resign/i.test(action.text)) {  // a variant's own resignation (Acedrex)
      const b = button(serverWord("action", action.text), null, false);
      b.onclick = confirmFirst(b, () => act({ index: action.index }));
    } else {
      button(serverWord("action", action.text), () => act({ index: action.index }), true);
    }
  }
  if (ringList.children.length > 1) controls.appendChild(ringList);
  if (resigns.children.length > 1) controls.appendChild(resigns);
  refreshPick();
}

let slid;  // the key of the last play slid (or seen on arrival)

function slide(last) {
  // Another seat's play arrives: its checkers slide from where they stood, one move
  // after another.
  const key = last ? last.key : null;
  const fresh = slid !== undefined && key !== slid;
  slid = key;
  if (!fresh || !last || last.seat === table.you || !Element.prototype.animate) return;
  const board = $("board");
  const paths = [];  // a checker moved twice (24/18/13) slides once, 24 to 13
  for (const [from, to] of last.steps) {
    const on = paths.findLast((p) => p[1] === from && from !== "bar");
    if (on) on[1] = to; else paths.push([from, to]);
  }
  const taken = {};
  paths.forEach(([from, to], k) => {
    const source = board.querySelector(`[data-spot="${from}"]`);
    const target = board.querySelector(`[data-spot="${to}"]`);
    if (!source || !target) return;
    const checkers = target.querySelectorAll(".checker");
    taken[to] = (taken[to] || 0) + 1;
    const checker = checkers[checkers.length - taken[to]];
    if (!checker) return;
    const [x0, y0] = stackTop(source);
    const [x1, y1] = centre(checker.getBBox());
    const dx = x0 - x1, dy = y0 - y1;
    checker.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
                    { duration: 350, delay: 300 * k, easing: "ease-in-out", fill: "backwards" });
  });
}

function centre(box) {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

function stackTop(spot) {
  // Where the next checker of the spot's stack would stand: where the one that left stood.
  const area = centre(spot.firstElementChild.getBBox());
  const left = spot.querySelectorAll(".checker");
  if (!left.length) return area;
  const last = centre(left[left.length - 1].getBBox());
  if (left.length > 1) {
    const before = centre(left[left.length - 2].getBBox());
    return [2 * last[0] - before[0], 2 * last[1] - before[1]];
  }
  const size = left[0].getBBox().height;
  return [last[0], last[1] + Math.sign(area[1] - last[1]) * size];
}

function details(title) {
  const box = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = title;
  box.appendChild(summary);
  return box;
}

function confirmFirst(b, handler) {
  // Giving up the game takes a second click: the first asks.
  const text = b.textContent;
  let armed = null;
  return () => {
    if (armed) { clearTimeout(armed); armed = null; handler(); return; }
    b.textContent = t("table.click_again", { action: text });
    b.classList.add("danger");
    armed = setTimeout(() => { armed = null; b.textContent = text; b.classList.remove("danger"); }, 5000);
  };
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
    confirmButton.textContent = done ? t("table.confirm_play", { play: done.text }) : t("table.confirm");
  }
}

function markBoard() {
  const spots = document.querySelectorAll("#board [data-spot]");
  for (const spot of spots) {
    spot.classList.remove("source", "target", "picked");
    spot.onclick = null;
  }
  if (sent) { labelSpots(); return; }
  if (ringPick) {
    // Acedrex on the ring: a stop (or the hand) with a piece that can move, then where.
    const from = ringPick.source;
    const choices = new Set(ringPick.moves.filter((m) => from === null || m.from === from)
      .map((m) => (from === null ? m.from : m.to)));
    markSpots(spots, from, choices, (name) => {
      if (name === null || from === null) { ringPick.source = name; markBoard(); return; }
      act({ index: ringPick.moves.find((m) => m.from === from && m.to === name).index });
    }, () => {
      $("hint").textContent = from === null
        ? t("hint.ring_no_piece")
        : t("hint.ring_not_there");
    });
  } else if (pick) {
    const from = pick.source;
    markSpots(spots, from, from === null ? sources() : targets(from), (name) => {
      if (name === null) { pick.source = null; refreshPick(); } else clickSpot(name);
    }, refuseSpot);
  }
  labelSpots();
}

function markSpots(spots, from, choices, take, refuse) {
  // The spot picked (a click puts it down: take(null)), the spots it or a first pick may
  // take (take(name)), and every other spot, which says why not (refuse(name)).
  for (const spot of spots) {
    const name = spot.dataset.spot;
    if (from !== null && name === from) {
      spot.classList.add("picked");
      spot.onclick = () => take(null);
    } else if (choices.has(name)) {
      spot.classList.add(from === null ? "source" : "target");
      spot.onclick = () => take(name);
    } else {
      spot.onclick = () => refuse(name);
    }
  }
  if (byKeyboard) {  // the keyboard goes on where the choice now is
    const next = document.querySelector("#board .spot.target, #board .spot.source");
    if (next && !document.activeElement.closest("#controls, #chat-form")) next.focus();
  }
}

// --- the keyboard and screen readers --------------------------------------------------
// Every spot of the board can be reached with Tab and read: what stands there, and
// whether it can be picked; Enter or Space picks it as a click would.
let byKeyboard = false;
document.addEventListener("keydown", (event) => { if (event.key === "Tab") byKeyboard = true; });
document.addEventListener("pointerdown", () => { byKeyboard = false; });

function spotName(name) {
  if (["bar", "off", "hand", "jackpot"].includes(name)) return t(`spot.${name}`);
  return /^p\d+$/.test(name) ? t("spot.point", { point: name.slice(1) }) : t("spot.stop", { stop: name });
}

function labelSpots() {
  for (const spot of document.querySelectorAll("#board [data-spot]")) {
    const name = spot.dataset.spot;
    let text = spotName(name);
    if (spot.dataset.mine !== undefined) {
      const mine = Number(spot.dataset.mine), theirs = Number(spot.dataset.theirs);
      const who = table.you === null ? ["spot.first", "spot.second"] : ["spot.yours", "spot.theirs"];
      const parts = [];
      if (mine) parts.push(t(who[0], { count: mine }));
      if (theirs) parts.push(t(who[1], { count: theirs }));
      text += ": " + (parts.length ? parts.join(", ") : t("spot.empty"));
    }
    for (const state of ["source", "target", "picked"]) {
      if (spot.classList.contains(state)) text += ` (${t(`spot.${state}`)})`;
    }
    spot.setAttribute("tabindex", "0");
    spot.setAttribute("role", "button");
    spot.setAttribute("aria-label", text);
    spot.onkeydown = (event) => {
      if ((event.key === "Enter" || event.key === " ") && spot.onclick) {
        event.preventDefault();
        spot.onclick();
      }
    };
  }
}

let announced = "";
function announce(text) {
  // Turn changes and results, for screen readers (a polite live region).
  if (text && text !== announced) { announced = text; $("announce").textContent = text; }
}

function refuseSpot(name) {
  // A click that moves nothing says why, instead of doing nothing.
  const where = spotName(name);
  if (pick.source !== null) {
    $("hint").textContent = t("hint.not_there", { where });
  } else if ((pick.mine[name] || 0) > 0) {
    $("hint").textContent = t("hint.cannot_move", { where });
  } else {
    $("hint").textContent = t("hint.none_there", { where });
  }
}

function clickSpot(name) {
  $("hint").textContent = "";
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
  if (!pick.path.length) { showBoard(table.board); markBoard(); return; }
  send({ type: "preview", index: play.index, moves: play.used });
}

function confirmPlay() {
  const done = complete();
  if (done) act({ index: done.index });
}

// Dragging a checker: press on a checker that can move, let go on a highlighted point.
// A press without a move is left to the click handlers above.
let drag = null;
$("board").addEventListener("pointerdown", (event) => {
  const spot = event.target.closest("[data-spot]");
  if (!pick || sent || pick.source !== null || !spot || !spot.classList.contains("source")) return;
  event.preventDefault();  // no text selection, which turned the next drag into a native one
  drag = { from: spot.dataset.spot, x: event.clientX, y: event.clientY, moved: false };
});
$("board").addEventListener("dragstart", (event) => event.preventDefault());
$("board").addEventListener("pointermove", (event) => {
  if (!drag || drag.moved) return;
  if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
  drag.moved = true;
  pick.source = drag.from;
  refreshPick();
});
document.addEventListener("pointerup", (event) => {
  const was = drag;
  drag = null;
  if (!was || !was.moved || !pick || pick.source !== was.from) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const spot = under && under.closest("#board [data-spot]");
  if (spot && targets(was.from).has(spot.dataset.spot)) move(was.from, spot.dataset.spot);
});

$("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("position").textContent);
$("invite").onclick = () => {
  const link = `${location.origin}/t/${tableId}#join`;
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
  $("invite-link").textContent = link;
};

// A line of narration in the page's language: its message from the catalogue, the
// seats' names put in (a value named *_seat is a seat, *_seats several, *_result the
// name of a result, throws a list of seat and die); the server's English where the
// catalogue lacks the message.
function narration(line) {
  const key = `n.${line.message}`;
  if (!line.message || !(key in catalogue)) return line.text;
  const name = (seat) => table.seats[seat].name;
  const values = {};
  for (const [field, value] of Object.entries(line.values || {})) {
    if (field.endsWith("_seats")) values[field.slice(0, -6)] = value.map(name).join(t("n.and"));
    else if (field.endsWith("_seat")) values[field.slice(0, -5)] = name(value);
    else if (field.endsWith("_result")) values[field.slice(0, -7)] = t(`result.${value}`);
    else if (field === "throws") {
      values.throws = value.map(([seat, die]) => t("n.throw", { player: name(seat), die })).join(", ");
    } else values[field] = value;
  }
  return t(key, values);
}

// A question the server words in English, in the page's language where its catalogue
// knows the kind (a play of the dice, the cube before rolling, another game?).
function questionText(question) {
  const play = /^play (\d(?:-\d)+)$/.exec(question.text);
  if (play) return t("question.play", { dice: play[1] });
  const cube = /^double to (\d+), or roll\?$/.exec(question.text);
  if (cube) return t("question.cube", { value: cube[1] });
  const steps = /^move (\d+)$/.exec(question.text);  // an Acedrex throw to move by
  if (steps) return t("question.move", { steps: steps[1] });
  if (question.text === "another game?") return t("question.another");
  const lot = /^play the lot's (\d-\d) \(play\) or throw both dice again \(throw\)$/.exec(question.text);
  if (lot) return t("question.lot", { dice: lot[1] });  // Russian backgammon's opening
  const doubles = /^choose the doubles number \(([\d\- or]+)\)$/.exec(question.text);
  if (doubles) return t("question.doubles", { numbers: doubles[1].replaceAll(" or ", ", ") });
  return question.text;
}

// --- clocks, chat, sounds, rematch ---------------------------------------------------

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawClocks() {
  const box = $("clocks");
  box.hidden = !clock;
  if (!clock || !table) return;
  const spent = (performance.now() - clock.at) / 1000;
  box.replaceChildren();
  for (const seat of table.seats) {
    const span = document.createElement("span");
    const running = clock.seat === seat.seat;
    const delay = running ? Math.max(0, clock.delay - spent) : 0;
    const left = running ? clock.left[seat.seat] - Math.max(0, spent - clock.delay) : clock.left[seat.seat];
    span.textContent = `${seat.name} ${clockText(left)}` + (running && delay > 0 ? ` (+${Math.ceil(delay)})` : "");
    span.className = "clock" + (running ? " running" : "") + (running && left < 20 ? " low" : "");
    span.dataset.seat = seat.seat;
    box.appendChild(span);
  }
}
setInterval(drawClocks, 250);

const chatSeen = new Set();  // a reconnection is sent the lines again
function showChat(lines) {
  const list = $("chat");
  for (const line of lines) {
    if (chatSeen.has(line.id)) continue;
    chatSeen.add(line.id);
    const li = document.createElement("li");
    li.textContent = `${line.name}: ${line.text}`;  // text, never HTML
    list.appendChild(li);
  }
  while (list.children.length > 50) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

$("chat-form").onsubmit = (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  send({ type: "chat", text });
  $("chat-text").value = "";
};

const soundsKey = "gammon:sounds";
$("sounds").checked = localStorage.getItem(soundsKey) === "1";
$("sounds").onchange = () => localStorage.setItem(soundsKey, $("sounds").checked ? "1" : "0");
let audio = null;
function beep() {
  if (!$("sounds").checked) return;
  audio = audio || new AudioContext();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
}

async function rematch() {
  const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(token ? { token } : {}) });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = data.error; return; }
  localStorage.setItem(`gammon-token-${data.id}`, data.token);
  location.href = `/t/${data.id}`;
}

function stakesText() {
  const kind = table.kind === "match" ? t("stakes.match", { length: table.length })
    : t(`create.kind.${table.kind}`);
  const rated = table.rated ? t("stakes.rated") : t("stakes.unrated");
  const timed = table.clock ? t("stakes.clock", { delay: table.clock.delay, reserve: table.clock.reserve })
    : t("stakes.no_clock");
  const game = serverWord("variant", table.rotation ? table.rotation.name : table.variant);
  return [game, kind, rated, timed].join(", ");
}

function offerOtherSeat() {
  $("switch-offer").hidden = !(otherSeatLink && table.you !== null);
}

$("switch").onclick = () => {
  token = otherSeatLink;  // kept once the server takes it, as any link's token
  otherSeatLink = "";
  $("switch-offer").hidden = true;
  if (socket) { socket.onclose = null; socket.close(); }
  connect();
};

function offerSeat(free) {
  const offer = $("join-offer");
  offer.hidden = !(invited && !token && free && table.you === null && !table.over
                   && !table.rematch_of);
  if (!offer.hidden) $("join-stakes").textContent = t("table.join_offer", { stakes: stakesText() });
}

$("join").onclick = () => { $("join-offer").hidden = true; join(); };

async function join() {
  // The invitation's free seat, as the lobby's "take a seat" takes it.
  const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = `${data.error} (${t("table.watching")})`; connect(); return; }
  token = new URLSearchParams(new URL(data.url, location.href).hash.slice(1)).get("token") || "";
  localStorage.setItem(storeKey, token);  // the server has just given it
  if (socket) { socket.onclose = null; socket.close(); }
  connect();
}

i18n.ready.then(connect);
