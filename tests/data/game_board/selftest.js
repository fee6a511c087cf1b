// Scripted check of static/game.js on a fixture page, run when the page is opened with
// #selftest. Each step clicks the centre of a square where a finger would (through any
// piece drawn on it) and compares the marked squares, and the move submitted if any, with
// the step's expectations. The verdict goes into #selftest-result.
(function () {
  "use strict";
  if (location.hash !== "#selftest") {
    return;
  }
  var out = document.getElementById("selftest-result");
  var steps = JSON.parse(document.getElementById("selftest-steps").textContent);
  var form = document.querySelector("form.move-form");
  var submitted = null;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    submitted = form.querySelector("input[name=move]").value;
  });

  function names(selector) {
    return Array.prototype.map
      .call(document.querySelectorAll(".game-board " + selector), function (el) {
        return el.getAttribute("data-square");
      })
      .sort();
  }

  function clickSquare(name) {
    var square = document.querySelector('.game-board [data-square="' + name + '"]');
    square.scrollIntoView({ block: "center" });
    var box = square.getBoundingClientRect();
    var x = box.left + box.width / 2;
    var y = box.top + box.height / 2;
    var hit = document.elementFromPoint(x, y);
    hit.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: x, clientY: y }));
  }

  var failures = [];
  if (!document.querySelector(".game-play.playable")) {
    failures.push("game.js did not set up the board");
  }
  steps.forEach(function (step, index) {
    submitted = null;
    clickSquare(step.click);
    var got = {
      selected: names(".selected"),
      target: names(".target"),
      submitted: submitted,
    };
    var want = {
      selected: step.selected.slice().sort(),
      target: step.target.slice().sort(),
      submitted: step.submitted || null,
    };
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      failures.push(
        "step " + (index + 1) + " (click " + step.click + "): want " +
          JSON.stringify(want) + ", got " + JSON.stringify(got)
      );
    }
  });
  out.textContent = failures.length === 0
    ? "PASS: " + steps.length + " steps"
    : "FAIL\n" + failures.join("\n");
})();
