/* Castle: keyboard play on the board.
 *
 * Only an enhancement: every card is a real form button, so the game plays fully without
 * this file. Listeners sit on document (event delegation), so they survive htmx replacing
 * #board after every move.
 *
 *   Arrow keys   move focus between the cards and empty piles you can use
 *                (Left/Right along a row, Up/Down to the row above or below)
 *   Enter, Space select the focused card, or move the selected card there (native buttons)
 *   Escape       cancel the selection
 *
 * After a swap the focus comes back where play continues: to the nearest legal destination
 * when a card has just been selected, to the same pile after a move, to the card that was
 * selected after a cancel, to the same control after undo or redo.
 */
(function () {
  "use strict";

  var DIRECTIONS = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  var saved = null;

  function board() {
    return document.getElementById("board");
  }

  function usable(root) {
    if (!root) return [];
    return Array.prototype.filter.call(
      root.querySelectorAll(".pile button:not(:disabled)"),
      function (el) { return el.getClientRects().length > 0; }
    );
  }

  /* The part of a button that shows: a covered card in a vertical fan shows only its top strip. */
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

  function distance(a, b) {
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  function nearest(items, point) {
    var best = null;
    var bestDistance = Infinity;
    items.forEach(function (el) {
      var d = distance(visible(el), point);
      if (d < bestDistance) { best = el; bestDistance = d; }
    });
    return best;
  }

  /* The best button from `from` in direction (dx, dy). Left/Right keep to the same row when
     they can; otherwise the usual spatial rule: nearest ahead, straying sideways costs double. */
  function neighbour(from, dx, dy) {
    var a = visible(from);
    var items = usable(board()).filter(function (el) { return el !== from; });
    var ahead = items.map(function (el) {
      var b = visible(el);
      return {
        el: el,
        box: b,
        along: (b.x - a.x) * dx + (b.y - a.y) * dy,
        across: Math.abs((b.x - a.x) * dy + (b.y - a.y) * dx),
      };
    }).filter(function (c) { return c.along > 2; });
    if (dx) {
      var sameRow = ahead.filter(function (c) { return c.box.top < a.bottom && c.box.bottom > a.top; });
      if (sameRow.length) ahead = sameRow;
    }
    var best = null;
    var bestScore = Infinity;
    ahead.forEach(function (c) {
      var score = c.along + 2 * c.across;
      if (score < bestScore) { best = c.el; bestScore = score; }
    });
    return best;
  }

  function firstInReadingOrder(items) {
    var best = null;
    var bestBox = null;
    items.forEach(function (el) {
      var box = visible(el);
      if (!best || box.top < bestBox.top - 4 || (Math.abs(box.top - bestBox.top) <= 4 && box.left < bestBox.left)) {
        best = el;
        bestBox = box;
      }
    });
    return best;
  }

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var b = board();
    if (!b) return;
    var active = document.activeElement;
    if (typing(active)) return;

    if (event.key === "Escape") {
      var cancel = b.querySelector(".cancel");
      if (cancel) {
        event.preventDefault();
        cancel.click();
      }
      return;
    }

    var direction = DIRECTIONS[event.key];
    if (!direction || event.shiftKey) return;
    var inBoard = active && b.contains(active) && active.closest(".pile");
    if (!inBoard && active && active !== document.body) return;
    var target;
    if (inBoard) {
      target = neighbour(active, direction[0], direction[1]);
    } else {
      target = b.querySelector('.card[value$="-f"]:enabled') || firstInReadingOrder(usable(b));
    }
    event.preventDefault();
    if (target) target.focus();
  });

  /* -- focus across htmx swaps -------------------------------------------------------------- */

  function pileName(el) {
    var pile = el && el.closest(".pile");
    return pile ? pile.getAttribute("data-pile") : null;
  }

  function selectedPile(b) {
    var pile = b.querySelector(".pile.selected");
    if (pile) return pile.getAttribute("data-pile");
    var card = b.querySelector('.card[value$="-f"]');
    return card ? pileName(card) : null;
  }

  /* `r:7H-f3` and `r:7H` name the same card: compare what is before the move's target. */
  function cardKey(el) {
    return (el.value || "").replace(/-[a-z0-9]*$/, "");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var b = board();
    var active = document.activeElement;
    var controls = document.getElementById("controls");
    var trigger = event.detail && event.detail.elt;
    saved = null;
    if (b && active && b.contains(active)) {
      saved = {
        where: "board",
        element: active,
        pile: pileName(active),
        key: cardKey(active),
        point: visible(active),
        selected: b.classList.contains("selecting") ? selectedPile(b) : null,
        cancel: !!(trigger && trigger.classList && trigger.classList.contains("cancel")),
      };
    } else if (controls && active && controls.contains(active)) {
      saved = { where: "controls", element: active, action: active.getAttribute("formaction") };
    }
  });

  function restoreInControls(s) {
    var controls = document.getElementById("controls");
    if (!controls) return null;
    var same = s.action && controls.querySelector('button[formaction="' + s.action + '"]:not(:disabled)');
    return same || controls.querySelector("button:not(:disabled)");
  }

  function restoreInBoard(s, b) {
    var items = usable(b);
    if (!items.length) return null;
    if (b.classList.contains("selecting")) {
      var chosen = b.querySelector('.card[value$="-f"]:enabled');
      var targets = items.filter(function (el) {
        return el.closest(".pile.target") && !el.nextElementSibling;
      });
      if (targets.length) return nearest(targets, chosen ? visible(chosen) : s.point);
      return chosen;
    }
    function inPile(name) {
      return items.filter(function (el) { return pileName(el) === name; });
    }
    var order = s.cancel ? [s.selected, s.pile] : [s.pile, s.selected];
    for (var i = 0; i < order.length; i++) {
      if (!order[i]) continue;
      var here = inPile(order[i]);
      if (here.length) {
        var sameCard = here.filter(function (el) { return cardKey(el) === s.key; });
        return sameCard[0] || here[here.length - 1];
      }
    }
    return nearest(items, s.point);
  }

  document.addEventListener("htmx:afterSettle", function () {
    var s = saved;
    if (!s) return;
    saved = null;
    if (s.element.isConnected && document.activeElement === s.element) return;
    var b = board();
    var target = s.where === "controls" ? restoreInControls(s) : b && restoreInBoard(s, b);
    if (target) target.focus();
  });
})();
