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

  // Lists the record's games so the arbiter can pick one.
  function listGames() {
    var select = document.getElementById("game");
    select.innerHTML = "";
    if (!record.bytes) {
      select.add(new Option("—", ""));
      return;
    }
    clearError();
    post("/desk/record", { record: record.bytes, name: record.name })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        answer.games.forEach(function (g) {
          var lang = document.getElementById("lang").value;
          var length = { zh: "共" + g.plies + "着", en: g.plies + " plies" }[lang] ||
            "共" + g.plies + "着 " + g.plies + " plies";
          var title = (g.title ? g.title + ", " : "") + length;
          select.add(new Option(g.number + ". " + title, String(g.number)));
        });
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

  document.getElementById("lang").addEventListener("change", function (e) {
    document.body.className = "lang-" + e.target.value;
  });

  document.getElementById("print").addEventListener("click", function () { window.print(); });

  fetch("/v1/rulesets").then(function (r) { return r.json(); }).then(function (answer) {
    var select = document.getElementById("ruleset");
    select.innerHTML = "";
    answer.rulesets.forEach(function (r) {
      var option = new Option(r.name, r.name, r.isDefault, r.isDefault);
      option.title = r.description;
      select.add(option);
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
    clearError();
    var checked = function (id) { return document.getElementById(id).checked; };
    var body = {
      ruleset: document.getElementById("ruleset").value,
      told_to_change: { red: checked("told-red"), black: checked("told-black") },
      key_point: { red: checked("key-red"), black: checked("key-black") },
      lang: document.getElementById("lang").value,
      paperwork: paperwork()
    };
    if (source() === "record") {
      body.record = record.bytes;
      body.name = record.name;
      var game = document.getElementById("game").value;
      if (game) body.game = Number(game);
      body.at = document.getElementById("at").value;
      if (!record.bytes) {
        showError({ field: "record", message: "record: choose a file or paste a record" });
        return;
      }
    } else {
      body.fen = document.getElementById("fen").value;
      body.moves = document.getElementById("moves").value;
    }
    document.body.classList.add("busy");
    post("/desk/ruling", body)
      .then(function (r) { return r.text(); })
      .then(function (html) {
        result.innerHTML = html;
        qiliSteps(result);
        var sheet = result.querySelector(".qili-sheet");
        if (sheet) sheet.scrollIntoView({ behavior: "smooth", block: "start" });
      })
      .catch(function (err) {
        result.innerHTML = "";
        showError(err);
      })
      .finally(function () { document.body.classList.remove("busy"); });
  });

  showPanes();
})();
