// Live pages: an element with `data-live-stream` (the URL of a Server-Sent Events stream)
// keeps itself up to date. When an event says the page no longer shows the latest state
// (its `data-live-key` differs from the key the event's data gives), the page is fetched
// again and the element named by `data-live-swap` (its own id by default) is replaced by
// the fresh one. Without this script the pages are the same, only static.
//
// An update never changes what the page shows, only its figures: the page is fetched again
// at exactly the address it shows (`data-live-page`, which keeps the round, ply, side ...
// asked for; else the browser's address), a fresh part that shows something else (its
// `data-live-page` differs) is not swapped in, and what the user has chosen or typed in a
// form of the part and not sent yet is kept in the fresh form with the same target.
//
// Clocks: an element with `data-clock-ms` shows that many milliseconds as m:ss (h:mm:ss
// over an hour) and, when it has `data-clock-running`, counts down from the moment the
// page or fragment arrived.
(function () {
  "use strict";

  // The key of the state an event describes, per kind of element (the templates write the
  // same key for what they show).
  var keys = {
    // A game page: moves played, status, result and pending offer.
    game: function (s) {
      var offer = s.draw_offer ? s.draw_offer.by + "@" + s.draw_offer.ply : "";
      return [s.ply, s.status, s.result || "", offer].join("|");
    },
    // A game in the home page's list: moves played and status.
    turn: function (s) {
      return [s.ply, s.status].join("|");
    },
    // An event's current round: its number and each board's result (with each game's of a
    // micro-match, whose board has no result until both games have one; a board of one
    // game has its result once).
    round: function (r) {
      var results = (r.boards || []).map(function (b) {
        var games = (b.games || []).length > 1 ? b.games.map(function (g) {
          return g.result || "";
        }) : [];
        return [b.result || ""].concat(games).join(",");
      });
      return [r.round === null ? "" : r.round].concat(results).join("|");
    }
  };
  var eventName = { game: "state", turn: "state", round: "round" };

  var refreshing = null;
  var again = false;

  // Fetches the page again and swaps the containers that live elements name.
  function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    // The page as it should be fetched again (a page answering a form post names itself).
    var named = document.querySelector("[data-live-page]");
    var page = named ? named.getAttribute("data-live-page") : window.location.href;
    refreshing = fetch(page, {
      credentials: "same-origin",
      headers: { Accept: "text/html" }
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) {
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var swapped = [];
        Array.prototype.forEach.call(document.querySelectorAll("[data-live-stream]"), function (el) {
          var id = el.getAttribute("data-live-swap") || el.id;
          if (!id || swapped.indexOf(id) >= 0) {
            return;
          }
          var old = document.getElementById(id);
          var replacement = fresh.getElementById(id);
          if (old && busy(old)) {
            // Someone is filling in a form in it: swap once they leave it.
            again = true;
            return;
          }
          if (old && replacement && sameView(old, replacement)) {
            var imported = document.importNode(replacement, true);
            keepEdits(old, imported);
            old.replaceWith(imported);
            swapped.push(id);
          }
        });
        if (swapped.length > 0) {
          tick();
          // The fresh part may watch other streams (a game new in the home page's list).
          start();
          document.dispatchEvent(new CustomEvent("damka:swapped"));
        }
      })
      .catch(function () {})
      .then(function () {
        refreshing = null;
        if (again && !busyAnywhere()) {
          again = false;
          refresh();
        }
      });
  }

  // Whether a fresh part shows what the old one shows (the page each was made for).
  function sameView(old, fresh) {
    return (old.getAttribute("data-live-page") || "") === (fresh.getAttribute("data-live-page") || "");
  }

  // The form controls of `root` the user may change, by form target and name (and value
  // for check boxes and radio buttons).
  function controls(root) {
    var found = {};
    Array.prototype.forEach.call(root.querySelectorAll("form"), function (form) {
      var target = (form.getAttribute("method") || "get") + " " + (form.getAttribute("action") || "");
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || /^(hidden|submit|button|reset|file|image)$/.test(el.type)) {
          return;
        }
        var checkable = el.type === "checkbox" || el.type === "radio";
        found[target + " " + el.name + (checkable ? "=" + el.value : "")] = el;
      });
    });
    return found;
  }

  // Whether the user changed `el` since the page (or part) arrived.
  function edited(el) {
    if (el.type === "checkbox" || el.type === "radio") {
      return el.checked !== el.defaultChecked;
    }
    if (el.tagName === "SELECT") {
      return Array.prototype.some.call(el.options, function (o) {
        return o.selected !== o.defaultSelected;
      });
    }
    return el.value !== el.defaultValue;
  }

  // Puts what the user chose or typed in `old`'s forms, not sent yet, into the same
  // controls of the same forms (same target) in `fresh`; a control the fresh part lacks
  // is dropped with its form's target.
  function keepEdits(old, fresh) {
    var before = controls(old);
    var after = controls(fresh);
    Object.keys(before).forEach(function (key) {
      var was = before[key];
      var now = after[key];
      if (!now || !edited(was)) {
        return;
      }
      if (was.type === "checkbox" || was.type === "radio") {
        now.checked = was.checked;
      } else if (was.tagName === "SELECT") {
        Array.prototype.forEach.call(now.options, function (o) {
          o.selected = Array.prototype.some.call(was.options, function (w) {
            return w.selected && w.value === o.value;
          });
        });
      } else {
        now.value = was.value;
      }
    });
  }

  // Whether the user is typing or choosing in a form control inside `el`.
  function busy(el) {
    var active = document.activeElement;
    return !!active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) &&
      active.type !== "submit" && active.type !== "hidden";
  }

  function busyAnywhere() {
    return Array.prototype.some.call(document.querySelectorAll("[data-live-stream]"), function (el) {
      var id = el.getAttribute("data-live-swap") || el.id;
      var container = id && document.getElementById(id);
      return !!container && busy(container);
    });
  }

  document.addEventListener("focusout", function () {
    if (again && !refreshing) {
      again = false;
      window.setTimeout(refresh, 0);
    }
  });

  // One EventSource per stream URL, however many elements watch it.
  var sources = {};

  function watch(url, kind) {
    if (sources[url]) {
      return;
    }
    var source = new EventSource(url);
    sources[url] = source;
    source.addEventListener(eventName[kind], function (event) {
      var data;
      try {
        data = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      var key = keys[kind](data);
      var stale = Array.prototype.some.call(
        document.querySelectorAll('[data-live-stream="' + url + '"]'),
        function (el) {
          return el.getAttribute("data-live-key") !== String(key);
        }
      );
      if (stale) {
        refresh();
      }
    });
  }

  // Opens the streams the page's elements name and closes those no element names any more.
  function start() {
    var wanted = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-stream]"), function (el) {
      var kind = el.getAttribute("data-live-kind") || "game";
      var url = el.getAttribute("data-live-stream");
      if (keys[kind]) {
        wanted[url] = true;
        watch(url, kind);
      }
    });
    Object.keys(sources).forEach(function (url) {
      if (!wanted[url]) {
        sources[url].close();
        delete sources[url];
      }
    });
  }

  // --- clocks ---

  function clockText(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h > 0) {
      return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    }
    return m + ":" + ss;
  }

  function tick() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-ms]"), function (el) {
      var ms = Number(el.getAttribute("data-clock-ms"));
      if (!isFinite(ms)) {
        return;
      }
      // A clock not seen before (new page, swapped fragment) counts from now.
      if (!el.hasAttribute("data-clock-arrived")) {
        el.setAttribute("data-clock-arrived", String(now));
      }
      if (el.hasAttribute("data-clock-running")) {
        ms -= now - Number(el.getAttribute("data-clock-arrived") || now);
      }
      var text = clockText(ms);
      if (el.textContent !== text) {
        el.textContent = text;
      }
    });
  }

  tick();
  window.setInterval(tick, 250);
  start();
})();
