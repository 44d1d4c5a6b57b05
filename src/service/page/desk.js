// The consult page: reads the form, sends it to /desk/ruling, shows the sheet it answers (or the
// error, on the field it names). Records are sent as their bytes (base64), so GBK files work.
(function () {
  "use strict";
  var form = document.getElementById("dispute");
  var result = document.getElementById("result");
  var errorBox = document.getElementById("error");
  var record = { bytes: "", name: "" };
  var fields = {
    fen: "fen", moves: "moves", notation: "moves", record: "record-text", game: "game",
    at: "at", ruleset: "ruleset", lang: "lang", told_to_change: "told-red",
    defensive_key_point: "key-red"
  };

  function lang() {
    return document.getElementById("lang").value;
  }

  // A message in the language chosen (both: Chinese, then English).
  function say(zh, en) {
    return { zh: zh, en: en }[lang()] || zh + "\n" + en;
  }

  // The profile menu names each profile in words, in the language chosen.
  function relabel() {
    document.querySelectorAll("#ruleset option[data-zh]").forEach(function (o) {
      o.textContent = { zh: o.dataset.zh, en: o.dataset.en }[lang()] ||
        o.dataset.zh + " · " + o.dataset.en;
    });
  }

  function base64(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i += 0x8000) {
      out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(out);
  }

  function source() {
    return form.querySelector("input[name=source]:checked").value;
  }

  function showPanes() {
    form.querySelectorAll(".pane").forEach(function (p) {
      p.hidden = p.dataset.source !== source();
    });
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
    form.querySelectorAll("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
  }

  function showError(err) {
    errorBox.textContent = err.message || String(err);
    errorBox.hidden = false;
    var id = fields[err.field];
    if (id === "record-text" && record.name) id = "record-file";
    var input = id && document.getElementById(id);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      if (r.ok) return r;
      return r.json().catch(function () {
        return { message: "HTTP " + r.status };
      }).then(function (e) { throw e; });
    });
  }

  // Lists the record's games so the arbiter can pick one: a thousand at a time, the server's
  // limit, with options to list the ones before and after.
  function listGames(from) {
    var select = document.getElementById("game");
    select.innerHTML = "";
    if (!record.bytes) {
      select.add(new Option("—", ""));
      return;
    }
    clearError();
    from = from || 1;
    post("/desk/record", { record: record.bytes, name: record.name, games_from: from, lang: lang() })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        var chosen = select.dataset.chosen;
        answer.games.forEach(function (g) {
          var length = say("共" + g.plies + "着", g.plies + " plies");
          var title = (g.title ? g.title + (lang() === "zh" ? "，" : ", ") : "") +
            length.replace("\n", " ");
          var number = say("第" + g.number + "局", g.number + ".").replace("\n", " ");
          select.add(new Option(number + " " + title, String(g.number)));
        });
        var shown = answer.games.length;
        if (from > 1) {
          select.add(new Option(say("◀ 前面的棋局", "◀ earlier games"),
            "list:" + Math.max(1, from - 1000)), 0);
        }
        if (from + shown <= answer.total) {
          select.add(new Option(say("后面的棋局 ▶（共" + answer.total + "局）",
            "later games ▶ (" + answer.total + " in all)").replace("\n", " "),
            "list:" + (from + shown)));
        }
        if (chosen) select.value = chosen;
      })
      .catch(showError);
  }

  document.getElementById("record-file").addEventListener("change", function (e) {
    var file = e.target.files[0];
    if (!file) return;
    file.arrayBuffer().then(function (buffer) {
      record = { bytes: base64(new Uint8Array(buffer)), name: file.name };
      document.getElementById("record-text").value = "";
      listGames();
    });
  });

  var typing;
  document.getElementById("record-text").addEventListener("input", function (e) {
    clearTimeout(typing);
    typing = setTimeout(function () {
      var text = e.target.value;
      record = { bytes: text.trim() ? base64(new TextEncoder().encode(text)) : "", name: "" };
      document.getElementById("record-file").value = "";
      listGames();
    }, 300);
  });

  form.querySelectorAll("input[name=source]").forEach(function (r) {
    r.addEventListener("change", showPanes);
  });

  document.getElementById("game").addEventListener("change", function (e) {
    var value = e.target.value;
    if (value.indexOf("list:") === 0) {
      listGames(Number(value.slice(5)));
      return;
    }
    e.target.dataset.chosen = value;
  });

  // A new language re-labels the form and re-renders what is shown in it.
  document.getElementById("lang").addEventListener("change", function () {
    document.body.className = "lang-" + lang();
    relabel();
    if (record.bytes) listGames();
    if (result.querySelector(".qili-sheet")) rule();
  });

  document.getElementById("print").addEventListener("click", function () { window.print(); });

  // The server's profiles: their descriptions as tooltips; one the page does not know is added by
  // its name.
  fetch("/v1/rulesets").then(function (r) { return r.json(); }).then(function (answer) {
    var select = document.getElementById("ruleset");
    answer.rulesets.forEach(function (r) {
      var option = Array.prototype.find.call(select.options, function (o) {
        return o.value === r.name;
      });
      if (!option) {
        option = new Option(r.name, r.name);
        select.add(option);
      }
      option.title = r.description;
    });
  }).catch(function () { /* the built-in list stays */ });

  // The time of the ruling as the arbiter's clock shows it: 2026-12-01 16:04.
  function now() {
    var d = new Date();
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " +
      two(d.getHours()) + ":" + two(d.getMinutes());
  }

  function paperwork() {
    var value = function (id) { return document.getElementById("pw-" + id).value.trim(); };
    return {
      event: value("event"), round: value("round"), board: value("board"), red: value("red"),
      black: value("black"), arbiter: value("arbiter"), time: value("time") || now()
    };
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    diagramsFrom = 0;
    rule();
  });

  // The first diagram of the sheet shown: a long cycle's sheet draws a window of its diagrams,
  // and its buttons ask for the windows before and after.
  var diagramsFrom = 0;
  result.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".more-diagrams button[data-from]");
    if (!button) return;
    diagramsFrom = Number(button.dataset.from);
    rule(true);
  });

  // Sends the form to /desk/ruling and shows the sheet (or the error on its field); a sheet shown
  // again (in another language) keeps the diagram it was at.
  function rule(anotherWindow) {
    var shown = result.querySelector(".qili-sheet");
    var step = shown && !anotherWindow ? Number(shown.dataset.step || 0) : -1;
    clearError();
    var checked = function (id) { return document.getElementById(id).checked; };
    var body = {
      ruleset: document.getElementById("ruleset").value,
      told_to_change: { red: checked("told-red"), black: checked("told-black") },
      key_point: { red: checked("key-red"), black: checked("key-black") },
      lang: document.getElementById("lang").value,
      paperwork: paperwork(),
      diagrams_from: diagramsFrom
    };
    if (source() === "record") {
      body.record = record.bytes;
      body.name = record.name;
      var game = document.getElementById("game").value;
      if (game) body.game = Number(game);
      body.at = document.getElementById("at").value;
      if (!record.bytes) {
        showError({ field: "record", message: say("棋谱：请上传或贴入棋谱",
          "record: choose a file or paste a record") });
        return;
      }
    } else {
      body.fen = document.getElementById("fen").value;
      body.moves = document.getElementById("moves").value;
      if (!body.moves.trim()) {
        showError({ field: "moves", message: say(
          "着法：请填入走到重复局面的着法（ICCS、WXF 或中文纵线），或改为上传棋谱",
          "moves: type the moves that led to the repeated position (ICCS, WXF or Chinese notation), or upload a record") });
        return;
      }
    }
    document.body.classList.add("busy");
    post("/desk/ruling", body)
      .then(function (r) { return r.text(); })
      .then(function (html) {
        result.innerHTML = html;
        qiliSteps(result);
        var sheet = result.querySelector(".qili-sheet");
        if (!sheet) return;
        if (step > 0 && sheet.qiliStep) sheet.qiliStep(step);
        if (step < 0) sheet.scrollIntoView({ behavior: "smooth", block: "start" });
      })
      .catch(function (err) {
        result.innerHTML = "";
        showError(err);
      })
      .finally(function () { document.body.classList.remove("busy"); });
  }

  showPanes();
  relabel();
})();
