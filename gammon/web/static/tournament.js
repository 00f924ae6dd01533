"use strict";
// One tournament (/tournaments/ID): its standings and rounds, kept live (asked again
// every two seconds), and, signed in, entering, leaving, starting (its maker) and going to
// your table. Everything the server sends is shown as text (textContent).
const $ = (id) => document.getElementById(id);
const tournamentId = decodeURIComponent(location.pathname.split("/")[2] || "");

function text(tag, words, className) {
  const element = document.createElement(tag);
  element.textContent = words;
  if (className) element.className = className;
  return element;
}

function playerLink(name) {
  const a = text("a", name);
  a.href = `/u/${encodeURIComponent(name)}`;
  return a;
}

function state(shown) {
  const starts = new Date(shown.starts * 1000).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
  if (shown.status === "open") return t("tournament.state.open", { starts });
  if (shown.status === "running") return shown.kind === "arena" ? t("tournament.state.arena")
    : t("tournament.state.round", { round: shown.round, rounds: shown.settings.rounds || "?" });
  return shown.reason ? t("tournament.state.cancelled", { reason: shown.reason })
    : t("tournament.state.over", { winner: shown.standings.length ? shown.standings[0].name : "" });
}

function showStandings(shown) {
  const body = $("standings");
  body.replaceChildren();
  for (const row of shown.standings) {
    const tr = document.createElement("tr");
    const who = document.createElement("td");
    who.appendChild(playerLink(row.name));
    if (row.out) who.append(" ", text("span", t("tournament.out"), "muted"));
    tr.append(text("td", String(row.rank)), who, text("td", String(row.score)),
      text("td", String(row.tiebreak)), text("td", t("tournament.won_of", { won: row.won, played: row.played })));
    body.appendChild(tr);
  }
  if (!body.children.length) {
    const tr = document.createElement("tr");
    const td = text("td", t("tournament.nobody"), "muted");
    td.colSpan = 5;
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function gameLine(game) {
  const li = document.createElement("li");
  if (game.second === null) {
    li.append(playerLink(game.first), ` ${t("tournament.bye")}`);
    return li;
  }
  li.append(playerLink(game.first), " – ", playerLink(game.second), " ");
  if (game.winner === null) {
    const watch = text("a", t("tournament.watch"));
    watch.href = `/t/${encodeURIComponent(game.table)}`;
    li.appendChild(watch);
  } else {
    const result = game.winner ? t("tournament.winner", { name: game.winner }) : t("tournament.nobody_won");
    li.appendChild(text("span", result + (game.forfeit ? ` (${t("tournament.forfeit")})` : ""), "muted"));
  }
  return li;
}

function showRounds(shown) {
  const rounds = $("rounds");
  rounds.replaceChildren();
  for (const round of [...shown.rounds].reverse()) {
    rounds.appendChild(text("h3", t("tournament.round", { round: round.round })));
    const list = document.createElement("ul");
    list.className = "lines";
    for (const game of round.games) list.appendChild(gameLine(game));
    rounds.appendChild(list);
  }
}

async function show() {
  const answer = await fetch(`/api/tournaments/${encodeURIComponent(tournamentId)}`);
  const shown = await answer.json();
  if (!answer.ok) { $("error").textContent = shown.error; return; }
  $("name").textContent = shown.name;
  document.title = `${shown.name} · gammon`;
  $("play").textContent = [t(`tournaments.kind.${shown.kind}`), serverWord("variant", shown.settings.variant),
    t("pools.match", { length: shown.settings.length }), shown.settings.rated ? t("create.rated") : "",
    shown.maker ? t("tournament.maker", { name: shown.maker }) : t("tournament.scheduled")].filter(Boolean).join(" · ");
  $("description").textContent = shown.description;
  $("state").textContent = state(shown);
  const you = shown.you;
  $("join").hidden = !you || you.entered || shown.status !== "open";
  $("leave").hidden = !you || !you.entered || shown.status === "over";
  $("start").hidden = !you || !you.maker || shown.status !== "open";
  $("seat").hidden = !you || !you.table;
  $("seat").dataset.table = you && you.table ? you.table : "";
  showStandings(shown);
  showRounds(shown);
}

async function post(what) {
  $("error").textContent = "";
  const answer = await fetch(`/api/tournaments/${encodeURIComponent(tournamentId)}/${what}`,
    { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  const data = await answer.json();
  if (!answer.ok) $("error").textContent = data.error;
  show();
}

async function goToTable() {
  const table = $("seat").dataset.table;
  const answer = await fetch(`/api/tables/${encodeURIComponent(table)}/seats`,
    { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = data.error; return; }
  location.href = data.url;
}

for (const what of ["join", "leave", "start"]) $(what).onclick = () => post(what);
$("seat").onclick = goToTable;
i18n.ready.then(() => { show(); setInterval(show, 2000); });
