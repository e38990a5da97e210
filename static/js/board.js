/* Castle: playing on the board, one request per card move.
 *
 * Only an enhancement: every card is a real form button and the game plays fully without
 * this file. With it:
 *
 *   Click a card     selects it here, at once: its legal destinations come with the page
 *                    (#play's data, every legal move), no request; a covered card that
 *                    heads a run selects the run (in games where runs move)
 *   Click a pile     sends the selected card there (a legal one glows); the move is the only
 *                    request, and its answer redraws only what changed; the card sets off
 *                    at the click and lands where the answer puts it; a refused move
 *                    puts the card down and the status says why
 *   Click it again   (or double-click, double-tap) sends the card home to its foundation
 *   Drag             mouse, pen or touch (pointer events): drop on a pile; an illegal drop
 *                    returns the card and the status says why
 *   Arrow keys       move focus between the cards and piles you can use
 *   Enter, Space     select the focused card, or send the selected card to the focused pile
 *   Escape           cancel the selection (and clicks kept while a move is on its way)
 *
 * A stuck game's panel ("No way forward") lies over the piles: a card picked up closes it
 * to its strip, and so does a tap on its words. While it says the same, answers leave it
 * out (the Castle-Panel header names the one shown) and it stays as it is.
 *
 * A click can never leave the game: every click and submit on the board and its controls
 * is taken over here (so no form is ever submitted natively from swapped content), and
 * one request is in flight at a time, so a move is never sent twice or against a stale
 * position. Clicks on the board while a move is on its way act once its answer is in, in
 * order, as they would on the answer's board: on the card they were aimed at (the card
 * that move uncovers too) or on the pile (an empty one too); if a card they were aimed at
 * has gone or been covered meanwhile, they and those after them are dropped. Clicks on
 * the controls meanwhile are ignored: a double click on Undo takes back one move when its
 * second click lands while the first one's request is on its way, and two moves when the
 * first answer is in before the second click. Answers are elements that replace the ones
 * with their id (templates/games/game.html#move-response); static/js/motion.js animates what
 * they played.
 */
(function () {
  "use strict";

  var board = document.getElementById("board");
  if (!board || !document.getElementById("play")) return;
  if (board.classList.contains("selecting")) {
    /* A ?select= page (made for play without JavaScript): select here instead. */
    var chosen = board.querySelector("#mv input[name=select]");
    if (chosen && chosen.value) location.replace(location.pathname + "#" + chosen.value);
    else location.replace(location.pathname);
    return;
  }

  var DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  var busy = false;
  var queued = []; /* board clicks made while a request was in flight: see later() */
  var QUEUED_MAX = 4;
  /* Once the kept clicks overflow, the rest of the burst goes too, until the player's hand
     rests this long: a click dropped alone paired what followed wrongly (a card with the
     last pair's destination), a refusal or an unmeant move after each. */
  var QUIET_MS = 300;
  var dropping = 0; /* when the last click of an overflowing burst came (0: none) */
  var told = false; /* whether the status has said so, once a burst */
  var flights = new WeakMap(); /* a gliding copy: the pile it goes to and where it ends */
  var BUSY_AFTER = 150; /* ms */
  var selection = null; /* {source, card, pile, targets, enabled} */
  var swallow = null; /* the card a drag ended on: its click is not a click */
  var drag = null;
  var sightTimer = null; /* the scroll a tap asks for (pickUp) */
  var DOUBLE_TAP_MS = 500; /* a double tap's second tap comes within this */

  function play() { return document.getElementById("play"); }
  function pileOf(el) { return el && el.closest && el.closest("#board .pile[data-pile]"); }
  function pileEl(name) { return document.getElementById("pile-" + name); }
  /* A pile's kind ("tableau", "foundation", "reserve", "cell"), from the class the server
     gives each kind (games.presentation.PileView.side). */
  function kindOf(pile) {
    if (!pile) return "";
    if (pile.classList.contains("found")) return "foundation";
    if (pile.classList.contains("reserve")) return "reserve";
    if (pile.classList.contains("cell")) return "cell";
    return "tableau";
  }
  window.CastleKind = kindOf;

  /* Every legal move, as the server writes it (games.presentation.board_view): what each
     selectable card (by its selection, "t3", "r:7H") may move to, and its foundation. */
  function legal() { return data(play()); }

  /* #play's data, as the server writes it (games.presentation.script_data): the legal
     moves, and the moves the last action played with their piles' kinds (motion.js). */
  function data(el) {
    var script = el && el.querySelector("script");
    try {
      return script ? JSON.parse(script.textContent) : {};
    } catch (error) {
      return {};
    }
  }
  window.CastleData = data;
  /* The piles a selection may go to: #play's "to" pairs each list of sources with their
     destinations, where 0 stands for every empty tableau pile (its "spaces"). */
  function targetsOf(source) {
    var data = legal();
    var targets = [];
    var entry = (data.to || []).filter(function (pair) { return pair[0].indexOf(source) >= 0; })[0];
    (entry ? entry[1] : []).forEach(function (name) {
      if (name === 0) targets = targets.concat(data.spaces || []);
      else targets.push(name);
    });
    return targets;
  }

  function sourceOf(button) {
    return button && button.name === "select" && !button.disabled ? button.value : null;
  }

  /* -- selection, all in the page ---------------------------------------------------------- */

  /* A card and the cards on it: a covered card is selectable only when it heads a run. */
  function runOf(card) {
    var cards = [card];
    for (var next = card.nextElementSibling; next; next = next.nextElementSibling) cards.push(next);
    return cards;
  }

  function select(card) {
    deselect();
    var pile = pileOf(card);
    var source = sourceOf(card);
    var targets = targetsOf(source);
    var run = kindOf(pile) === "tableau" ? runOf(card) : [card];
    selection = { source: source, card: card, run: run, pile: pile, targets: targets, enabled: [] };
    board.classList.add("selecting");
    /* The stuck panel lies over the piles: a player who picks up a card all the same
       closes it to a strip, to see where the card may go (a tap on a destination under it
       landed on the panel and put the card down, a player's pass). */
    var stuck = document.querySelector("#status details.panel.stuck[open]");
    if (stuck) {
      stuck.open = false;
      stuck.dataset.folded = "";
    }
    run.forEach(function (el) { el.classList.add("picked"); });
    if (kindOf(pile) !== "reserve") pile.classList.add("selected");
    targets.forEach(function (name) {
      var target = pileEl(name);
      if (!target) return;
      target.classList.add("target");
      /* As the server's pages name them (piles.html's label). */
      target.dataset.was = target.getAttribute("aria-label") || "";
      target.setAttribute("aria-label", target.dataset.was + ", legal destination");
      var top = target.lastElementChild;
      if (top && top.disabled) {
        top.disabled = false;
        selection.enabled.push(top);
      }
    });
    var places = targets.length === 1 ? "1 place takes" : targets.length + " places take";
    tell(labelOf(card) + " picked up: " + (targets.length ? places + " it." : "no move for it."));
  }

  /* A card's name alone (its label, less what a hint added). */
  function labelOf(card) {
    return (card.dataset.label || card.getAttribute("aria-label") || "").split(",")[0];
  }

  /* For screen readers only: the page's own changes, which no answer's status says. */
  function tell(text) {
    var said = document.getElementById("said");
    if (said) said.textContent = text;
  }

  function deselect() {
    clearTimeout(sightTimer);
    if (!selection) return;
    board.classList.remove("selecting");
    selection.run.forEach(function (el) { el.classList.remove("picked"); });
    selection.pile.classList.remove("selected");
    selection.targets.forEach(function (name) {
      var target = pileEl(name);
      if (!target) return;
      target.classList.remove("target");
      if (target.dataset.was !== undefined) {
        target.setAttribute("aria-label", target.dataset.was);
        delete target.dataset.was;
      }
    });
    tell("");
    selection.enabled.forEach(function (el) { el.disabled = true; });
    selection = null;
  }

  /* The player puts the card down (Escape, cancel, a click on its own pile or off the
     board): a screen reader hears it, as it heard the card picked up ("#said" went empty,
     and nothing was said: a player's pass). */
  function putDown() {
    var card = selection && selection.card;
    deselect();
    if (card) tell(labelOf(card) + " put down.");
  }

  /* A move is the selection and where it goes; the server reads them into a move
     (games.rules.Board.selected_move), so this script writes no move notation. */
  function moveTo(source, target) { return { select: source, to: target }; }

  /* Home: the foundation that takes it (one does: cardClick puts the card down otherwise).
     Where two take it (Archway's ascending and descending foundations of a suit), the one a
     hint names for it, else none: the player chooses (the first of the two, sent blindly,
     lost a deal whose hint named the other: a player's pass). */
  function foundationsFor(source) {
    return targetsOf(source).filter(function (name) {
      return kindOf(pileEl(name)) === "foundation";
    });
  }

  function home(source) {
    var to = foundationsFor(source);
    if (to.length < 2) return moveTo(source, to[0]);
    var from = board.querySelector(".hint-from");
    var hinted = board.querySelector(".hint-to");
    if (from && hinted && sourceOf(from) === source && to.indexOf(hinted.dataset.pile) >= 0) {
      return moveTo(source, hinted.dataset.pile);
    }
    return null;
  }

  /* -- requests: one at a time -------------------------------------------------------------- */

  function token() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      var input = document.querySelector("input[name=csrfmiddlewaretoken]");
      return input ? input.value : "";
    }
  }

  /* The status says `text` above the panel it shows, which stays (a stuck game's Analyse:
     a card put down, said here, took the panel away, a player's pass). */
  function say(text, error) {
    var status = document.getElementById("status");
    if (!status) return;
    var fresh = status.cloneNode(false);
    fresh.className = error === false ? "status" : "status error";
    var p = document.createElement("p");
    p.className = "message";
    p.textContent = text;
    fresh.appendChild(p);
    renewStatus(status, fresh, statusPanel(status));
  }

  /* The status, a live region, stays in the page and takes `fresh`'s attributes and
     content (static/js/verdict.js), keeping its `kept` panel; replaced without that script. */
  function renewStatus(old, fresh, kept) {
    if (window.CastleRenew) {
      window.CastleRenew(old, fresh, kept);
      return;
    }
    if (kept) fresh.appendChild(kept);
    old.replaceWith(fresh);
  }

  function send(url, fields, lift) {
    busy = true;
    clearTimeout(sightTimer); /* a double tap's move went: no scroll after it (a player's pass) */
    var played = false;
    /* The busy look only once a request takes a moment: a class on the board restyles all
       its cards (the cursor is inherited), which would delay the answer's first frame. */
    var slow = setTimeout(function () { board.classList.add("busy"); }, BUSY_AFTER);
    var actions = document.getElementById("actions");
    var body = null;
    if (fields) {
      body = new URLSearchParams(fields);
      body.set("ply", play().dataset.ply);
    }
    return fetch(url, {
      method: fields ? "POST" : "GET",
      body: body,
      credentials: "same-origin",
      headers: {
        "HX-Request": "true",
        "X-CSRFToken": token(),
        "Castle-Controls": actions ? actions.dataset.key || "" : "",
        "Castle-Panel": panelKey(),
      },
    }).then(function (response) {
      return response.text().then(function (html) {
        if ([200, 400, 403, 409, 422, 429].indexOf(response.status) < 0) {
          throw new Error(String(response.status));
        }
        apply(html, lift);
        played = response.status === 200;
      });
    }).catch(function () {
      if (lift) lift.back();
      /* Put down, as an answer puts it: "try again" is the same two clicks, not a first
         click on the card still selected (which sends it home). */
      deselect();
      say("The server did not answer: nothing was changed. Try again.");
    }).then(function () {
      busy = false;
      clearTimeout(slow);
      if (board.classList.contains("busy")) board.classList.remove("busy");
      /* Clicks made for a position that did not come (a refusal, a conflict, no answer)
         would land on another one: they are dropped. */
      if (!played) queued = [];
      catchUp();
      tellDropped();
    });
  }

  /* The key of the stuck panel the page shows (games.pages.stuck_panel_key), or "". */
  function panelKey() {
    var panel = statusPanel(document.getElementById("status"));
    return panel ? panel.dataset.key || "" : "";
  }

  /* The panel a status shows: a stuck game's (Analyse). */
  function statusPanel(status) {
    return status ? status.querySelector(":scope > .panel") : null;
  }

  /* A stuck panel the player closed (to see the piles under it) stays closed when an
     answer brings one that says something else. One this script closed (a card picked
     up, "folded") opens again: it has news the player has not read. */
  function keepClosed(old, fresh) {
    var was = old.querySelector("details.panel.stuck");
    var now = fresh.querySelector("details.panel.stuck");
    if (was && now && !was.open && !("folded" in was.dataset)) now.open = false;
  }

  /* Each element of the answer replaces the one with its id, except a pile
     (games/piles.html#change, every "pile-" element of an answer): the pile keeps its cards
     below data-from (0 when absent), less those at the
     indexes in data-gone, and gains the answer's cards, with those data-carry takes over
     from another pile ("SOURCE FROM AT COUNT": the cards that pile shows from index FROM,
     put at index AT, each renamed by its new place). The page's layout is read before the
     first change (focus, where flights start) and once after the last (where they land),
     never in between: the new board is painted in the first frame after the answer, with
     the glide layered over it. A status marked data-panel-kept (any answer whose panel
     would say what the page's says, a refusal's, a 429's) says its sentence above the
     panel the status showed, which stays as it is: the status reads out what it gains. */
  function apply(html, lift) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var parts = Array.prototype.filter.call(template.content.children, function (el) {
      return el.id && document.getElementById(el.id);
    });
    if (!parts.length) throw new Error("no partials");
    var focus = rememberFocus();
    var moved = parts.some(isChange);
    var hinted = template.content.querySelector(".hint-from, .hint-to") !== null;
    var before = window.CastleMotion ? window.CastleMotion.before(template.content, lift) : null;
    /* Removing the focused element makes the browser lay the page out there and then. */
    if (focus && replaced(focus.element, parts)) focus.element.blur();
    /* Every answer puts the selection down, a refusal's too: a quick player's next click
       is the first of their next pair, never a destination for the card just refused. */
    deselect();
    if (moved) {
      board.querySelectorAll(".hint-from, .hint-to").forEach(function (el) {
        el.classList.remove("hint-from", "hint-to");
        if (el.dataset.label) el.setAttribute("aria-label", el.dataset.label);
      });
    }
    var carried = parts.filter(isChange).map(takeCarried);
    parts.forEach(function (el) {
      var old = document.getElementById(el.id);
      if (isChange(el)) {
        var from = Number(el.dataset.from || 0);
        gone(el).reverse().forEach(function (index) { old.children[index].remove(); });
        while (old.children.length > from) old.lastElementChild.remove();
        while (el.firstChild) old.appendChild(el.firstChild);
        carried.forEach(function (carry) { if (carry.into === el) putCarried(carry, old); });
        if (el.hasAttribute("class")) old.className = el.className;
        if (el.hasAttribute("aria-label")) old.setAttribute("aria-label", el.getAttribute("aria-label"));
        if (el.dataset.label) old.dataset.label = el.dataset.label;
      } else {
        keepClosed(old, el);
        var kept = el.hasAttribute("data-panel-kept") ? statusPanel(old) : null;
        el.removeAttribute("data-panel-kept");
        if (el.hasAttribute("aria-live")) renewStatus(old, el, kept);
        else old.replaceWith(el);
      }
    });
    var form = document.querySelector("#controls form");
    if (form && form.elements.ply) form.elements.ply.value = play().dataset.ply;
    /* What the task worker is still deciding (Analyse's "analysing…") looks again by
       itself, as the verdict badge does (static/js/verdict.js): this page has no htmx. */
    parts.forEach(function (el) {
      var now = document.getElementById(el.id);
      if (now.dataset.pollUrl && window.CastleLookAgain) window.CastleLookAgain(now);
    });
    restoreFocus(focus);
    showKeys();
    if (hinted) {
      showHint();
      /* A keyboard player's hint takes the focus to the hinted card, so Enter picks it up
         and Enter on its destination plays it. From nothing (the page itself), Enter did
         nothing; from the card just moved, it stayed there, and Enter, Enter picked that
         card up and put it down, or played it somewhere (two players' passes). Not from the
         controls (Enter on Hint again), nor from a player of the pointer, whose focus H let
         go (below) so that no ring marks a third card. */
      var from = !pressed && (!focus || focus.where === "board") &&
        board.querySelector(".hint-from");
      if (from && document.activeElement !== from) from.focus({ preventScroll: true });
    }
    if (lift && !moved) lift.back();
    if (before) window.CastleMotion.after(before);
    else if (lift && moved) lift.drop();
  }

  /* A hint's card and destination are on the screen: on a phone the board can be taller
     than it, and a hinted foundation was below the fold. */
  function showHint() {
    inSight(board.querySelectorAll(".hint-from, .hint-to"));
  }

  function inSight(elements) {
    elements.forEach(function (el) {
      var box = el.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
    });
  }

  function isChange(el) { return el.id.indexOf("pile-") === 0; }

  /* The cards a pile of the answer carries over (data-carry), taken out of the pile that
     shows them before any pile changes. */
  function takeCarried(el) {
    var words = (el.dataset.carry || "").split(" ");
    var source = words.length === 4 && document.getElementById("pile-" + words[0]);
    if (!source) return { into: null, cards: [] };
    var first = Number(words[1]);
    var cards = Array.prototype.slice.call(source.children, first, first + Number(words[3]));
    cards.forEach(function (card) { card.remove(); });
    return { into: el, at: Number(words[2]), cards: cards };
  }

  /* Carried cards in their new places: a card that heads a run names its place (t3@5). */
  function putCarried(carry, pile) {
    var name = pile.id.slice("pile-".length);
    var next = pile.children[carry.at] || null;
    carry.cards.forEach(function (card, k) {
      pile.insertBefore(card, next);
      if (card.value) card.value = name + "@" + (carry.at + k + 1);
    });
  }

  function gone(pile) {
    return (pile.dataset.gone || "").split(" ").filter(Boolean).map(Number);
  }

  /* Whether applying `parts` removes `el` (a pile keeps some of its cards). */
  function replaced(el, parts) {
    return parts.some(function (part) {
      var old = document.getElementById(part.id);
      if (!old.contains(el)) return false;
      if (!isChange(part)) return true;
      var child = el;
      while (child.parentElement !== old) child = child.parentElement;
      var index = Array.prototype.indexOf.call(old.children, child);
      var left = gone(part).filter(function (i) { return i < index; }).length;
      return gone(part).indexOf(index) >= 0 || index - left >= Number(part.dataset.from || 0);
    });
  }

  /* -- clicks: all of them, on the board and its controls ---------------------------------- */

  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest(".game")) event.preventDefault();
  }, true);

  /* On the status itself, which stays in the page: Safari on a phone passes a tap on plain
     words up only to an element with a click handler of its own. */
  var statusEl = document.getElementById("status");
  if (statusEl) statusEl.addEventListener("click", function (event) {
    var summary = event.target.closest("#status .panel.stuck summary");
    if (summary) delete summary.parentElement.dataset.folded; /* the player's own opening or closing */
    var words = event.target.closest("#status details.panel.stuck[open]");
    if (words && !event.target.closest("summary, a, button, form") && !String(getSelection())) {
      /* A tap on the panel's words closes it, as its heading does: it lies over the piles,
         and the card to pick up lay under it (a player's pass: only Hide reached it). Not
         words being selected. (A card in hand is put down, as by any click off the board.) */
      words.open = false;
      delete words.dataset.folded;
    }
  });

  document.addEventListener("click", function (event) {
    var analyse = event.target.closest && event.target.closest("#status form.analyse button");
    if (analyse) {
      /* Analyse: its answer is the status, in place (a plain form without this script). */
      event.preventDefault();
      if (!busy) send(analyse.form.getAttribute("action"), {});
      return;
    }
    var el = event.target.closest && event.target.closest("button, a.cancel");
    var inBoard = el && board.contains(el);
    var control = el && el.closest("#controls form");
    /* A card selected, a pile's covered cards and space take it too (a phone's column);
       so they do while a move is on its way after a kept click, which may select one. */
    var picking = selection || (busy && queued.length);
    var area = !inBoard && !control && picking && pileOf(event.target);
    if (!inBoard && !control && !area) {
      if (selection && !event.target.closest("#board")) putDown();
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    if (swallow && swallow.contains(el || event.target)) { swallow = null; return; }
    if (window.CastleMotion) window.CastleMotion.finish();
    if (!control && stillDropping()) return;
    if (busy) {
      if (control) { if (event.detail === 0) laterControl(el.getAttribute("formaction"), true); }
      else if (area || !el.classList.contains("cancel")) later(event, el, area);
      return;
    }
    if (area) { pileClick(area); return; }
    if (control) {
      var fields = {};
      if (el.name) fields[el.name] = el.value;
      send(el.getAttribute("formaction"), fields);
      return;
    }
    if (el.classList.contains("cancel")) { putDown(); return; }
    cardClick(el, event.detail === 0);
  }, true);

  function cardClick(el, keyboard) {
    var pile = pileOf(el);
    if (!pile) return;
    var name = pile.dataset.pile;
    var source = sourceOf(el);
    if (selection) {
      if (el === selection.card) {
        /* Again on the card: home; a run goes home one card at a time, so it is put down,
           and so is a card no foundation takes (a request for it only came back refused,
           "No foundation takes J♠" in red, where the player meant to put it down: a
           player's pass). */
        if (selection.run.length > 1) { putDown(); return; }
        if (!foundationsFor(selection.source).length) {
          putDown();
          say(labelOf(el) + " put down: no foundation takes it yet.", false);
          return;
        }
        var homeMove = home(selection.source);
        if (homeMove) send("moves", homeMove, glide(homeMove.to));
        else {
          say(labelOf(el) + ": two foundations take it. Choose one.", false);
          inSight(board.querySelectorAll(".target")); /* a phone's foundations are below */
        }
        return;
      }
      if (source && (kindOf(pile) === "reserve" || pile === selection.pile)) {
        pickUp(el, keyboard);
        return;
      }
      send("moves", moveTo(selection.source, name), glide(name));
      return;
    }
    if (source) pickUp(el, keyboard);
  }

  /* A card picked up: the keyboard goes to a destination; a click or a tap with no
     destination on the screen brings one into it (on a phone an Archway reserve card's one
     foundation lay below the fold, and nothing glowed: a player's pass). Not at once: the
     second tap of a double tap (home) would land on what the scroll brought under it.
     Picking up another card (``deselect``) or sending a move cancels it. */
  function pickUp(card, keyboard) {
    select(card);
    if (keyboard) { focusTarget(); return; }
    sightTimer = setTimeout(function () {
      if (selection && selection.card === card && !drag) targetInSight();
    }, DOUBLE_TAP_MS);
  }

  /* A destination in sight is left where it is. */
  function targetInSight() {
    var targets = selection.targets.map(pileEl).filter(Boolean);
    var shown = targets.some(function (el) {
      var box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    if (!shown) inSight(targets.slice(0, 1));
  }

  /* A click on the board while a request is in flight, kept to act on its answer. It is
     kept as what the player saw under the pointer, in terms that outlive the answer's
     redraw: a pile, and a card by its face, usable then or not. A card in flight (its copy
     gliding to its pile, the card itself unseen) is seen where its glide ends, on its new
     pile, once its copy shows there; before, the card it is going to cover: a double
     click there just after the move (on the destination's top card, to send it home) was
     taken for one on the card still on its way, and sent that card home (a player's
     pass). The card a move uncovers is seen at once, though its button waits for the
     answer to be enabled; a keyboard's click (no pointer) is on the focused card. */
  function later(event, el, area) {
    if (queued.length >= QUEUED_MAX) {
      dropping = Date.now();
      return;
    }
    var keyboard = event.detail === 0;
    var seen = keyboard && el
      ? { pile: pileOf(el), card: el.classList.contains("card") ? el : null }
      : seenAt(event.clientX, event.clientY);
    if (!seen || !seen.pile) return;
    queued.push({
      pile: seen.pile.dataset.pile,
      face: seen.card ? seen.card.textContent : null,
      covered: !!seen.card && seen.card.disabled,
      keyboard: keyboard,
    });
  }

  /* Whether a board click belongs to a burst whose kept clicks overflowed (a click within
     QUIET_MS of the last one dropped): dropped too, and the burst lasts on. Once the kept
     clicks have acted, the status says so and the selection is put down: the next click,
     after a rest, starts a pair of its own. */
  function stillDropping() {
    if (!dropping) return false;
    var now = Date.now();
    if (now - dropping < QUIET_MS || busy || queued.length) {
      dropping = now;
      return true;
    }
    dropping = 0;
    told = false;
    return false;
  }

  function tellDropped() {
    if (!dropping || told || busy || queued.length) return;
    told = true;
    deselect();
    if (!play().hasAttribute("data-won")) {
      say("Some clicks came faster than the game could keep them, and were not played: " +
        "the board shows where the game stands.");
    }
  }

  /* Undo or Redo pressed from the keyboard while a request is in flight (Z five times,
     quickly: each press is meant): kept, in order with the board's kept clicks, to act on
     its answer's buttons. A mouse's second click on a button is a double click, one intent,
     and is ignored; so are Restart and Auto-play, which no quick hand presses twice. H from
     the keyboard (`key`) is kept once: pressed while an undo was on its way, it was lost
     without a word. */
  function laterControl(name, key) {
    if (queued.length >= QUEUED_MAX) return;
    var hint = key && name === "hint" && !queued.some(function (q) { return q.control === "hint"; });
    if (name === "undo" || name === "redo" || hint) queued.push({ control: name });
  }

  /* A key pressed for a control whose button is disabled (static/js/shortcuts.js): kept so
     while a request is in flight, whose answer may enable it (Y just after Z: the undo's
     answer enables Redo; Z just after a game's first move). Dropped, the player's Z, Y, Z
     went back three moves, and a first move followed by Z stayed played (a player's pass). */
  window.CastleKeepKey = function (name) {
    if (busy) laterControl(name, true);
  };

  function seenAt(x, y) {
    var flying = document.querySelectorAll(".ghost.leaving");
    for (var i = flying.length - 1; i >= 0; i--) {
      var flight = flights.get(flying[i]);
      if (flight && inside(flight.end, x, y) && inside(flying[i].getBoundingClientRect(), x, y)) {
        return { pile: pileEl(flight.to), card: flying[i] };
      }
    }
    var under = document.elementsFromPoint(x, y);
    for (var j = 0; j < under.length; j++) {
      var pile = pileOf(under[j]);
      if (!pile) continue;
      /* A usable card is hit where it shows, raised over the next one or not; on the pile
         itself, or on a leaving card, the card that shows is one the hit cannot find. */
      var card = under[j].closest(".card");
      if (card && !card.classList.contains("leaving")) return { pile: pile, card: card };
      return { pile: pile, card: shownAt(pile, x, y) };
    }
    return null;
  }

  function inside(box, x, y) {
    return x >= box.left && x < box.right && y >= box.top && y < box.bottom;
  }

  /* The card of `pile` that shows at (x, y), found by the cards' boxes: the last one there
     (each covers those before it), leaving ones aside (unseen while their copies glide).
     The point's elements leave out every disabled card (castle.css lets a press through a
     covered card to its pile), and so the card a move in flight uncovers, enabled only by
     its answer. An empty pile's slot is no card: a click there is on the pile. */
  function shownAt(pile, x, y) {
    for (var el = pile.lastElementChild; el; el = el.previousElementSibling) {
      if (!el.classList.contains("card") || el.classList.contains("leaving")) continue;
      var box = el.getBoundingClientRect();
      if (x >= box.left && x < box.right && y >= box.top && y < box.bottom) return el;
    }
    return null;
  }

  /* The kept clicks, in order, until one sends a request (the rest wait for its answer) or
     one is aimed at a position that did not come (it and the rest are dropped). Each acts
     as it would on the answer's board: on its card if the card is usable there (a covered
     one uncovered meanwhile too); on the pile, as a destination, if the click was on the
     pile or a covered card still in it; and not at all if a card it was on has gone or
     is covered now, or if a pile click finds no card selected. A kept Undo or Redo whose
     button the answer leaves disabled does nothing, as the key would have then, and the
     keys after it act: Z, Z, Y pressed after a game's first move dropped the Y with the
     second Z, and the game stayed a move back (a player's pass). */
  function catchUp() {
    while (queued.length && !busy) {
      var aimed = queued.shift();
      if (aimed.control) {
        var button = document.querySelector(
          '#controls button[formaction="' + aimed.control + '"]:not(:disabled)');
        if (button) send(aimed.control, {});
        continue;
      }
      var pile = pileEl(aimed.pile);
      var card = pile && aimed.face !== null ? faceIn(pile, aimed.face, false) : null;
      var onPile = pile && !card && (aimed.face === null ||
        (aimed.covered && faceIn(pile, aimed.face, true) !== null));
      if (card) cardClick(card, aimed.keyboard);
      else if (onPile && selection) pileClick(pile);
      else {
        queued = [];
        return;
      }
    }
  }

  /* The pile's uppermost card with that face: a usable one, or with `any`, covered or not. */
  function faceIn(pile, face, any) {
    for (var el = pile.lastElementChild; el; el = el.previousElementSibling) {
      if (el.classList.contains("card") && (any || !el.disabled) && el.textContent === face) {
        return el;
      }
    }
    return null;
  }

  /* The selected card to the pile, or back down on its own pile. */
  function pileClick(pile) {
    if (pile === selection.pile) return putDown();
    send("moves", moveTo(selection.source, pile.dataset.pile), glide(pile.dataset.pile));
  }

  /* -- drag and drop (pointer events: mouse, pen, touch) ------------------------------------ */

  board.addEventListener("pointerdown", function (event) {
    swallow = null;
    if (window.CastleMotion) window.CastleMotion.finish();
    var card = event.target.closest("button.card");
    if (busy || !card || !sourceOf(card) || event.button !== 0 || drag) return;
    drag = { card: card, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
  });

  board.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x;
    var dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < 6) return;
      startDrag();
    }
    drag.ghosts.forEach(function (ghost) {
      ghost.style.transform = "translate(" + dx + "px, " + dy + "px)";
    });
    var over = pileUnder(event.clientX, event.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("over");
      if (over) over.classList.add("over");
      drag.over = over;
    }
  });

  /* A run is dragged whole: a copy of each of its cards follows the pointer. */
  function startDrag() {
    var card = drag.card;
    if (!selection || selection.card !== card) select(card);
    try { card.setPointerCapture(drag.id); } catch (error) { /* the pointer is gone */ }
    drag.box = card.getBoundingClientRect();
    drag.ghosts = ghostsOf(selection.run, "dragged");
    selection.run.forEach(function (el) { el.classList.add("lifted"); });
    drag.ghost = drag.ghosts[0];
  }

  /* Cards on their way, shown by copies (ghosts) while their move is asked: dropped once
     the answer is in the page (motion.js flies them on from where they are), or flown
     back to where they were (``box``, the first card's place) when it is refused. */
  function liftOf(ghosts, lifted, box, look) {
    var land = function () {
      ghosts.forEach(function (ghost) { ghost.remove(); });
      lifted.forEach(function (el) { el.classList.remove(look); });
    };
    return {
      ghost: ghosts[0],
      ghosts: ghosts,
      card: lifted[0],
      back: function () {
        if (!ghosts[0].isConnected) return;
        if (window.CastleMotion && window.CastleMotion.enabled()) {
          var now = ghosts[0].getBoundingClientRect();
          var shift = "translate(" + (now.left - box.left) + "px," + (now.top - box.top) + "px)";
          var animations = ghosts.map(function (ghost) {
            ghost.getAnimations().forEach(function (a) { a.cancel(); });
            ghost.style.transform = "";
            return ghost.animate([{ transform: shift }, { transform: "none" }],
              { duration: 160, easing: "ease-out" });
          });
          animations[0].onfinish = land;
          animations[0].oncancel = land;
        } else {
          land();
        }
      },
      drop: land,
    };
  }

  /* A copy of each card, where the card is, above the page. */
  function ghostsOf(cards, look) {
    return cards.map(function (el) {
      var box = el.getBoundingClientRect();
      var ghost = el.cloneNode(true);
      ghost.removeAttribute("name");
      ghost.removeAttribute("form");
      ghost.setAttribute("aria-hidden", "true");
      ghost.tabIndex = -1;
      ghost.className += " ghost " + look;
      ghost.style.left = box.left + "px";
      ghost.style.top = box.top + "px";
      ghost.style.setProperty("--w", box.width + "px");
      document.body.appendChild(ghost);
      return ghost;
    });
  }

  /* A move to a legal pile sets off at once, before its answer: the selected cards glide
     toward the pile's top, and motion.js takes the flight on from wherever they are when
     the answer lands them (or flies them back if it refuses the move). The click shows
     in the next frame, whatever the network. Not with motion off: cards never fly then. */
  var GLIDE = 220; /* ms: a little longer than motion.js's flight, which it hands over to */
  function glide(target) {
    var motion = window.CastleMotion;
    var pile = pileEl(target);
    if (!motion || !motion.enabled() || !selection || !pile) return null;
    if (selection.targets.indexOf(target) < 0) return null;
    var cards = selection.run.slice();
    var box = cards[0].getBoundingClientRect();
    var top = pile.lastElementChild;
    var goal = (top && top.classList.contains("card") ? top : pile).getBoundingClientRect();
    var dx = goal.left - box.left;
    var dy = goal.top - box.top;
    var ends = cards.map(function (el) {
      var r = el.getBoundingClientRect();
      return { left: r.left + dx, top: r.top + dy, right: r.right + dx, bottom: r.bottom + dy };
    });
    var ghosts = ghostsOf(cards, "leaving");
    ghosts.forEach(function (ghost, i) { flights.set(ghost, { to: target, end: ends[i] }); });
    cards.forEach(function (el) { el.classList.add("leaving"); });
    var shift = "translate(" + dx + "px," + dy + "px)";
    ghosts.forEach(function (ghost) {
      ghost.animate([{ transform: "none" }, { transform: shift }],
        { duration: GLIDE, easing: "cubic-bezier(.25,.7,.3,1)", fill: "forwards" });
    });
    return liftOf(ghosts, cards, box, "leaving");
  }

  function pileUnder(x, y) {
    var hit = document.elementFromPoint(x, y);
    return pileOf(hit);
  }

  function endDrag(event, dropped) {
    if (!drag || event.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    if (!d.ghost) return;
    swallow = d.card;
    if (d.over) d.over.classList.remove("over");
    var lifted = d.card.parentElement ? runOf(d.card) : [d.card];
    var lift = liftOf(d.ghosts, lifted, d.box, "lifted");
    var pile = dropped ? pileUnder(event.clientX, event.clientY) : null;
    if (!pile || pile === pileOf(d.card) || busy) {
      lift.back();
      deselect();
      return;
    }
    var source = selection ? selection.source : sourceOf(d.card);
    var legalHere = selection && selection.targets.indexOf(pile.dataset.pile) >= 0;
    if (!legalHere) lift.back();
    send("moves", moveTo(source, pile.dataset.pile), legalHere ? lift : null);
  }

  /* A finger lifted while it still moves would start a fling, though nothing scrolls, and
     Chromium takes the next tap for one that stops the fling: no click (a card tapped just
     after a drag stayed unselected, 2 taps in 3 in a test). A drag's moves are its own. */
  board.addEventListener("touchmove", function (event) {
    if (drag && drag.ghost && event.cancelable) event.preventDefault();
  }, { passive: false });
  board.addEventListener("pointerup", function (event) { endDrag(event, true); });
  board.addEventListener("pointercancel", function (event) { endDrag(event, false); });
  board.addEventListener("dragstart", function (event) { event.preventDefault(); });

  /* -- keyboard ------------------------------------------------------------------------------ */

  function usable() {
    return Array.prototype.filter.call(
      board.querySelectorAll(".pile button:not(:disabled)"),
      function (el) { return el.getClientRects().length > 0; }
    );
  }

  /* The part of a button that shows: a covered card in a fan shows only a strip. */
  function visible(el) {
    var r = el.getBoundingClientRect();
    var box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    var next = el.nextElementSibling;
    if (next) {
      var n = next.getBoundingClientRect();
      if (n.top > r.top + 1 && n.top < r.bottom && Math.abs(n.left - r.left) < 2) box.bottom = n.top;
    }
    box.x = (box.left + box.right) / 2;
    box.y = (box.top + box.bottom) / 2;
    return box;
  }

  function nearest(items, point) {
    var best = null;
    var bestDistance = Infinity;
    items.forEach(function (el) {
      var b = visible(el);
      var d = Math.hypot(b.x - point.x, b.y - point.y);
      if (d < bestDistance) { best = el; bestDistance = d; }
    });
    return best;
  }

  /* The best button from `from` in direction (dx, dy): Left/Right keep to the same row when
     they can; otherwise the nearest ahead, straying sideways costing double. Up and Down
     go no further sideways than three times as far as they go ahead: from a top card of
     Castles in Spain's thirteen piles, Up went to the top of a pile seven columns away, one
     card shorter (a player's pass); it now stays put, with nothing above that it could
     mean. */
  function neighbour(from, dx, dy) {
    var a = visible(from);
    var ahead = usable().filter(function (el) { return el !== from; }).map(function (el) {
      var b = visible(el);
      return {
        el: el,
        box: b,
        along: (b.x - a.x) * dx + (b.y - a.y) * dy,
        across: Math.abs((b.x - a.x) * dy + (b.y - a.y) * dx),
      };
    }).filter(function (c) { return c.along > 2 && (!dy || c.across <= 3 * c.along); });
    if (dx) {
      var sameRow = ahead.filter(function (c) { return c.box.top < a.bottom && c.box.bottom > a.top; });
      if (sameRow.length) ahead = sameRow;
    } else if (ahead.length) {
      // Up and down go to the next row, then across it: a pile one card shorter, its top
      // card a card's width aside, lost to the pile straight below it, two rows on, and
      // Down never reached it (a player's pass).
      var next = ahead.reduce(function (n, c) { return c.along < n.along ? c : n; });
      ahead = ahead.filter(function (c) { return c.box.top < next.box.bottom && c.box.bottom > next.box.top; });
    }
    var best = null;
    var bestScore = Infinity;
    ahead.forEach(function (c) {
      var score = c.along + 2 * c.across;
      if (score < bestScore) { best = c.el; bestScore = score; }
    });
    return best;
  }

  /* The top card of the first pile in reading order, the piles read by where they stand:
     read by the cards, the shortest pile's top card stood highest, and the first arrow went
     to the last pile of a row (Private Lane; a player's pass). The first row is the highest
     pile and every pile beside it, however their tops step (Archway's arch: the highest
     pile was its middle one); of it, the leftmost. */
  function firstInReadingOrder(items) {
    var piles = items.map(function (el) {
      var pile = pileOf(el) || el;
      return { el: el, pile: pile, box: pile.getBoundingClientRect() };
    });
    if (!piles.length) return null;
    var highest = piles.reduce(function (a, b) { return b.box.top < a.box.top ? b : a; });
    var first = piles.filter(function (p) {
      return p.box.top < highest.box.bottom && p.box.bottom > highest.box.top;
    }).reduce(function (a, b) { return b.box.left < a.box.left - 1 ? b : a; });
    /* Its last usable card: the one on top. */
    var own = piles.filter(function (p) { return p.pile === first.pile; });
    return own[own.length - 1].el;
  }

  function focusTarget() {
    if (!selection) return;
    var tops = selection.targets.map(function (name) {
      var pile = pileEl(name);
      return pile && pile.lastElementChild;
    }).filter(function (el) { return el && !el.disabled; });
    /* The destination a hint names for this card first: Enter again plays the hint's move
       (the nearest of Archway's two foundations was not always the hinted one). */
    var hinted = selection.card.classList.contains("hint-from") && board.querySelector(".hint-to");
    var onHinted = hinted && tops.filter(function (el) { return hinted.contains(el); })[0];
    var target = onHinted || (tops.length ? nearest(tops, visible(selection.card)) : selection.card);
    if (target) target.focus();
  }

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  document.addEventListener("keydown", function (event) {
    swallow = null;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var active = document.activeElement;
    if (typing(active)) return;
    if (event.key === "Escape") {
      queued = []; /* clicks kept during a request are cancelled too */
      if (!selection) return;
      event.preventDefault();
      var card = selection.card;
      putDown();
      if (card.isConnected) card.focus();
      return;
    }
    var direction = DIRECTIONS[event.key];
    if (!direction || event.shiftKey) return;
    var inBoard = active && board.contains(active) && active.closest(".pile");
    if (!inBoard && active && active !== document.body) return;
    var target = inBoard
      ? neighbour(active, direction[0], direction[1])
      : (selection && selection.card) || firstInReadingOrder(usable());
    event.preventDefault();
    if (target) target.focus();
  });

  /* -- focus across answers ------------------------------------------------------------------ */

  /* The focus a press of the pointer left on the board is let go at the first key that is
     not the board's own (H, Z, U, Y): Chromium rings the focused element once any key is
     pressed, and a card clicked a move ago stood ringed beside the hint's marks, a third
     mark (a player's pass). The arrows, Enter, Space, Escape and Tab keep it: there the
     player goes on from it by keyboard, and sees where. */
  var pressed = false;
  var BOARD_KEYS = /^(Arrow(Left|Right|Up|Down)|Enter| |Escape|Tab)$/;
  board.addEventListener("pointerdown", function () { pressed = true; }, true);
  document.addEventListener("keydown", function (event) {
    var active = document.activeElement;
    if (BOARD_KEYS.test(event.key)) pressed = false;
    else if (pressed && active && board.contains(active)) active.blur();
  }, true);

  function rememberFocus() {
    var active = document.activeElement;
    if (!active || active === document.body) return null;
    if (board.contains(active)) {
      var pile = pileOf(active);
      return { where: "board", element: active, pile: pile && pile.dataset.pile, point: visible(active) };
    }
    var controls = document.getElementById("controls");
    if (controls && controls.contains(active)) {
      return { where: "controls", element: active, action: active.getAttribute("formaction") };
    }
    return null;
  }

  /* Focus back where it was, or on what took its place: the top of the same pile (found
     without reading the layout), else the nearest card. */
  function restoreFocus(saved) {
    if (!saved) return;
    /* Focus stays in its pile: a card carried over to another one (data-carry) leaves it. */
    var home = saved.where !== "board" || pileOf(saved.element) === pileEl(saved.pile);
    if (saved.element.isConnected && !saved.element.disabled && home) {
      if (document.activeElement !== saved.element) saved.element.focus({ preventScroll: true });
      return;
    }
    var target = null;
    if (saved.where === "controls") {
      /* A control its own action disabled (Undo with nothing left to undo) hands focus to
         the controls as a whole, never to a neighbour: Enter pressed again on Undo would
         have redone the move it undid. */
      var controls = document.getElementById("controls");
      target = controls && (controls.querySelector('button[formaction="' + saved.action + '"]:not(:disabled)') ||
        controls);
    } else {
      var pile = saved.pile && pileEl(saved.pile);
      var here = pile ? pile.querySelectorAll("button:not(:disabled)") : [];
      if (here.length) {
        here[here.length - 1].focus({ preventScroll: true });
        return;
      }
      /* None left once the game is won: the win panel's main action (Play again, Next
         daily), else its first (a daily's went to Leaderboard; a player's pass). */
      target = nearest(usable(), saved.point) ||
        document.querySelector("#ending .panel.win .button") ||
        document.querySelector("#ending .panel.win a, #ending .panel.win button");
    }
    if (target) target.focus();
  }

  /* The keys' help: for this script's keys, and while the game goes on. */
  function showKeys() {
    var keys = document.getElementById("keys");
    if (keys) keys.hidden = play().hasAttribute("data-won");
  }
  showKeys();

  /* A ?select= address (see the top): select that card here. */
  if (location.hash.length > 1) {
    var wanted = decodeURIComponent(location.hash.slice(1));
    history.replaceState(null, "", location.pathname);
    var card = Array.prototype.find.call(board.querySelectorAll('button[name="select"]'), function (el) {
      return el.value === wanted;
    });
    if (card) { select(card); card.focus(); }
  }
})();
