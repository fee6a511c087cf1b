// Game page: play a move by clicking the board. Without this script the player types the
// move into the form; with it, clicks build the move from the page's list of legal moves
// (`data-legal` on `.game-play`) and the same form is submitted, so the server checks it
// exactly as a typed move.
//
// A click on a piece that can move selects it and marks the squares it can go to next. A
// click on a marked square extends the path; once a single legal move is left (or the path
// is a whole legal move), its notation goes into the form. A click anywhere else starts over.
(function () {
  "use strict";

  function setUp(play) {
    var moves;
    try {
      moves = JSON.parse(play.getAttribute("data-legal") || "[]");
    } catch (e) {
      return;
    }
    var form = play.querySelector("form.move-form") || document.querySelector("form.move-form");
    var board = play.querySelector("svg.game-board");
    if (!Array.isArray(moves) || moves.length === 0 || !form || !board) {
      return;
    }
    var input = form.querySelector("input[name=move]");
    if (!input) {
      return;
    }
    moves = moves.filter(function (m) {
      return m && typeof m.notation === "string" && Array.isArray(m.path) && m.path.length >= 2;
    });

    // The squares walked so far: empty, or the start square and each chosen landing.
    var prefix = [];

    function square(name) {
      return board.querySelector('[data-square="' + name + '"]');
    }

    function startsWith(path, start) {
      if (path.length < start.length) {
        return false;
      }
      for (var i = 0; i < start.length; i++) {
        if (path[i] !== start[i]) {
          return false;
        }
      }
      return true;
    }

    function matching() {
      return moves.filter(function (m) {
        return startsWith(m.path, prefix);
      });
    }

    // The squares the piece can go to next from the current prefix.
    function nextSquares(candidates) {
      var next = [];
      candidates.forEach(function (m) {
        var name = m.path[prefix.length];
        if (name !== undefined && next.indexOf(name) < 0) {
          next.push(name);
        }
      });
      return next;
    }

    function clearMarks() {
      Array.prototype.forEach.call(board.querySelectorAll(".selected, .target"), function (el) {
        el.classList.remove("selected", "target");
      });
    }

    function mark() {
      clearMarks();
      prefix.forEach(function (name) {
        var el = square(name);
        if (el) {
          el.classList.add("selected");
        }
      });
      nextSquares(matching()).forEach(function (name) {
        var el = square(name);
        if (el) {
          el.classList.add("target");
        }
      });
    }

    function reset() {
      prefix = [];
      clearMarks();
    }

    function submit(move) {
      input.value = move.notation;
      reset();
      if (typeof form.requestSubmit === "function") {
        form.requestSubmit();
      } else {
        form.submit();
      }
    }

    function choose(name) {
      if (prefix.length > 0 && nextSquares(matching()).indexOf(name) >= 0) {
        extend(name);
        return;
      }
      // The selected piece again starts over; another square starts over from there, so a
      // click on another piece of the player's selects that piece instead.
      var again = prefix.length > 0 && name === prefix[0];
      reset();
      if (again) {
        return;
      }
      prefix = [name];
      if (matching().length === 0) {
        // Not a piece that can move now.
        prefix = [];
        return;
      }
      mark();
    }

    function extend(name) {
      prefix = prefix.concat([name]);
      var left = matching();
      var whole = left.filter(function (m) {
        return m.path.length === prefix.length;
      });
      if (whole.length > 0) {
        submit(whole[0]);
      } else if (left.length === 1) {
        // Only one way on: the rest of the capture is forced.
        submit(left[0]);
      } else {
        mark();
      }
    }

    board.addEventListener("click", function (event) {
      var target = event.target.closest ? event.target.closest("[data-square]") : null;
      if (target && board.contains(target)) {
        choose(target.getAttribute("data-square"));
      } else {
        reset();
      }
    });
    document.addEventListener("click", function (event) {
      if (prefix.length > 0 && !board.contains(event.target)) {
        reset();
      }
    });
    moves.forEach(function (m) {
      var el = square(m.path[0]);
      if (el) {
        el.classList.add("movable");
      }
    });
    play.classList.add("playable");
  }

  function setUpAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".game-play[data-legal]"), setUp);
  }

  setUpAll();
  // The live page script (live.js) replaced the board with a fresher one.
  document.addEventListener("damka:swapped", setUpAll);
})();
