/* Castle: cards that glide (FLIP with the Web Animations API).
 *
 * static/js/board.js calls before() with an answer still unapplied, then after() once its
 * piles are in the page. #play's data (its "played") lists what the action played, in
 * order (an undo's moves with data-back): each card flies from where it was to where it
 * lands, the player's card first and auto-play after it one by one; an undo flies them
 * back, last first; a win ends in a cascade from the foundations. A foundation shows only its
 * top card: until the card flying onto it lands, the card it covers lies there.
 *
 * Animation is decoration only: the page is already in its new state, the moving copies
 * ("ghosts") ignore the pointer, and any click or key finishes them at once, so the next
 * click always lands. prefers-reduced-motion turns it all off, and so does the player's own
 * preference (the board's "still" class: Profile, "Cards glide").
 */
(function () {
  "use strict";

  var FLY = 190; /* ms a card takes */
  var NEXT = 110; /* ms between two auto-played cards */
  var RANKS = "A23456789TJQK";
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var ghosts = [];
  var hidden = [];
  var timers = [];
  var animations = [];

  function enabled() {
    return !reduced.matches && !document.querySelector("#board.still") &&
      typeof Element.prototype.animate === "function";
  }


  /* A pile's kind, as board.js reads it; "f" (the foundation that takes it) is one. */
  function kindOf(name) {
    return name === "f" ? "foundation" : window.CastleKind(document.getElementById("pile-" + name));
  }

  function cardsOf(pile) {
    return pile ? Array.prototype.filter.call(pile.children, function (el) {
      return el.classList.contains("card");
    }) : [];
  }

  /* The cards of the board as it is now, pile by pile, with where each one is. */
  function snapshot() {
    var piles = {};
    return function stack(name) {
      if (!piles[name]) {
        var pile = document.getElementById("pile-" + name);
        piles[name] = cardsOf(pile).map(function (el) {
          return { rect: el.getBoundingClientRect(), node: el, value: el.value };
        });
        piles[name].box = pile ? pile.getBoundingClientRect() : null;
      }
      return piles[name];
    };
  }

  function before(answer, lift) {
    var play = answer.querySelector("#play");
    if (!enabled() || !play) return null;
    var won = play.hasAttribute("data-won") && !document.querySelector("#play[data-won]");
    /* Words apart: "source-target", "source-target-reserve card" or "source-target-run length" */
    var played = window.CastleData(play).played;
    var moves = (played ? played.split(" ") : []).map(function (word) {
      var m = word.split("-");
      var length = /^[0-9]+$/.test(m[2] || "");
      return {
        from: m[0], to: m[1], card: m[2] && !length ? m[2] : null, count: length ? Number(m[2]) : 1
      };
    });
    if (play.hasAttribute("data-back")) {
      moves = moves.reverse().map(function (m) {
        return { from: m.to, to: m.from, card: m.card, count: m.count };
      });
    }
    if (!moves.length && !won) return null;
    var stack = snapshot();
    var flights = [];
    moves.forEach(function (m, i) {
      var from = stack(m.from);
      var starts = [];
      if (m.card && kindOf(m.from) === "reserve") {
        var at = from.map(function (e) { return e.value; }).indexOf("r:" + m.card);
        if (at >= 0) starts = from.splice(at, 1);
      } else {
        starts = from.splice(Math.max(from.length - m.count, 0), m.count); /* a run: lowest first */
      }
      if (!starts.length) starts = [null];
      var to = stack(m.to);
      starts.forEach(function (start, k) {
        if (!start) start = { rect: from.box, node: null };
        var ghost = i === 0 && lift && lift.ghosts[k];
        if (ghost) start = { rect: ghost.getBoundingClientRect(), node: start.node, lift: lift };
        var end = { pile: m.to, kind: kindOf(m.to), index: to.length, card: m.card, node: start.node, chained: false };
        var below = to[to.length - 1];
        /* A foundation shows only its top card: the one this card covers stays in sight under it. */
        if (end.kind === "foundation" && below && !below.pile) end.under = below.node;
        to.push(end);
        if (start.pile) start.chained = true;
        flights.push({ start: start, end: end, step: i });
      });
    });
    return { flights: flights, won: won };
  }

  /* Where a card landed in the new board. */
  function landing(end, claimed) {
    var pile = document.getElementById("pile-" + end.pile);
    if (!pile) return null;
    var cards = cardsOf(pile);
    if (end.kind === "foundation") return cards[cards.length - 1] || null;
    if (end.kind === "reserve") {
      return cards.filter(function (el) {
        return el.value === "r:" + end.card && claimed.indexOf(el) < 0;
      })[0] || null;
    }
    return cards[end.index] || null;
  }

  function ghostOf(node, rect) {
    var ghost = document.createElement("span");
    var suit = ["c", "d", "h", "s"].filter(function (s) { return node.classList.contains(s); })[0];
    ghost.className = "card ghost " + (suit || "");
    ghost.setAttribute("aria-hidden", "true");
    ghost.innerHTML = node.innerHTML;
    ghost.style.left = rect.left + "px";
    ghost.style.top = rect.top + "px";
    ghost.style.setProperty("--w", rect.width + "px");
    document.body.appendChild(ghost);
    ghosts.push(ghost);
    return ghost;
  }

  function hide(el) {
    el.classList.add("arriving");
    hidden.push(el);
  }

  function after(state) {
    var claimed = [];
    var flights = state.flights;
    flights.forEach(function (f) {
      f.end.el = landing(f.end, claimed);
      if (f.end.el) claimed.push(f.end.el);
      if (f.end.el) {
        f.end.rect = f.end.el.getBoundingClientRect();
      } else { /* a place it passed through: where the pile's top is */
        var pile = document.getElementById("pile-" + f.end.pile);
        var cards = cardsOf(pile);
        var near = cards[cards.length - 1] || pile;
        f.end.rect = near ? near.getBoundingClientRect() : null;
      }
    });
    /* The last flight onto an element shows it; the ones before keep their ghost there. */
    var last = new Map();
    flights.forEach(function (f, i) { if (f.end.el) last.set(f.end.el, i); });
    last.forEach(function (i, el) { hide(el); });
    /* While the new top of a foundation is hidden, the card it covers lies there in its place. */
    var under = new Map();
    flights.forEach(function (f) {
      if (f.end.under && f.end.el && f.end.rect && !under.has(f.end.el)) {
        var lying = ghostOf(f.end.under, f.end.rect);
        lying.classList.add("under");
        if (state.won) lying.classList.add("winning");
        under.set(f.end.el, lying);
      }
    });
    var done = 0;
    flights.forEach(function (f, i) {
      var delay = f.step === 0 ? 0 : FLY * 0.6 + (f.step - 1) * NEXT; /* a run flies together */
      var launch = function () {
        var from = f.start.rect;
        var to = f.end.rect;
        var node = f.start.node || f.end.el;
        if (f.start.lift) f.start.lift.drop();
        if (!from || !to || !node) { landed(); return; }
        var ghost = ghostOf(node, to);
        /* The win's last cards fly under the win panel, as its cascade falls: up to 31 of them
           covered "You won!" and its links for a second or two (a player's pass). */
        if (state.won) ghost.classList.add("winning");
        var animation = ghost.animate(
          [
            { transform: "translate(" + (from.left - to.left) + "px," + (from.top - to.top) + "px)" },
            { transform: "none" },
          ],
          { duration: FLY, delay: f.start.chained ? 0 : delay, easing: "cubic-bezier(.25,.7,.3,1)", fill: "backwards" }
        );
        animations.push(animation);
        animation.onfinish = function () {
          if (last.get(f.end.el) === i) {
            f.end.el.classList.remove("arriving");
            ghost.remove();
            if (under.has(f.end.el)) under.get(f.end.el).remove();
          } else if (!f.end.el) {
            ghost.remove();
          }
          landed();
        };
      };
      if (f.start.chained) timers.push(setTimeout(launch, delay));
      else launch();
    });
    function landed() {
      done += 1;
      if (done === flights.length) {
        clear();
        if (state.won) cascade();
      }
    }
    if (!flights.length && state.won) cascade();
  }

  /* The win: every foundation's cards leap off, one after another from its top, and bounce
   * down the screen, behind the win panel (play.css): "You won!" and its links stay in sight. */
  function cascade() {
    var foundations = document.querySelectorAll("#board .pile.f");
    var height = window.innerHeight;
    var order = [];
    foundations.forEach(function (pile) {
      var top = cardsOf(pile)[0];
      if (!top) return;
      var rank = RANKS.indexOf(top.textContent.trim().charAt(0) === "1" ? "T" : top.textContent.trim().charAt(0));
      var down = /descending/.test(pile.getAttribute("aria-label") || "");
      for (var k = 0; k < 13; k++) {
        var r = (rank + (down ? k : -k) + 13) % 13;
        order.push({ pile: pile, top: top, rank: r, k: k });
      }
    });
    order.sort(function (a, b) { return a.k - b.k; });
    var step = order.length > 60 ? 45 : 75;
    /* Laid out last first: the card that leaves next lies over the ones still waiting. */
    for (var j = order.length - 1; j >= 0; j--) {
      order[j].rect = order[j].top.getBoundingClientRect();
      order[j].ghost = ghostOf(order[j].top, order[j].rect);
      order[j].ghost.classList.add("falling");
    }
    order.forEach(function (item, i) {
      var rect = item.rect;
      var ghost = item.ghost;
      ghost.firstChild.textContent = item.rank === 9 ? "10" : RANKS.charAt(item.rank);
      var frames = [];
      var x = 0, y = 0, vx = (Math.random() * 5 + 2) * (Math.random() < 0.5 ? -1 : 1), vy = -Math.random() * 8;
      var floor = height - rect.bottom;
      for (var t = 0; t < 70; t++) {
        frames.push({ transform: "translate(" + x.toFixed(1) + "px," + y.toFixed(1) + "px)" });
        vy += 1.1;
        x += vx;
        y += vy;
        if (y > floor) { y = floor; vy = -vy * 0.7; }
      }
      frames.push({ transform: "translate(" + x.toFixed(1) + "px," + y.toFixed(1) + "px)", opacity: 0 });
      var animation = ghost.animate(frames, { duration: 1600, delay: i * step, fill: "backwards" });
      animations.push(animation);
      animation.onfinish = function () { ghost.remove(); };
    });
  }

  function clear() {
    ghosts.forEach(function (g) { if (!g.classList.contains("falling")) g.remove(); });
    ghosts = ghosts.filter(function (g) { return g.isConnected; });
    hidden.forEach(function (el) { el.classList.remove("arriving"); });
    hidden = [];
  }

  /* Everything lands now (a click or a key came). */
  function finish() {
    timers.forEach(clearTimeout);
    timers = [];
    var running = animations;
    animations = [];
    running.forEach(function (a) {
      try { a.cancel(); } catch (error) { /* already gone */ }
    });
    ghosts.forEach(function (g) { g.remove(); });
    ghosts = [];
    hidden.forEach(function (el) { el.classList.remove("arriving"); });
    hidden = [];
  }

  document.addEventListener("keydown", finish, true);

  window.CastleMotion = { enabled: enabled, before: before, after: after, finish: finish };
})();
