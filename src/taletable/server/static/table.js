// taletable's pages: the little the browser must do itself. No rule is decided here.
// Load after htmx.min.js and before htmx-ext-sse.min.js (the extension keeps our
// htmx.createEventSource when one is already defined).
(function () {
  "use strict";

  // The newest log entry on the page: every entry is <li id="ev-SEQ" data-seq="SEQ">.
  function lastSeq() {
    var entries = document.querySelectorAll("[data-seq]");
    var last = 0;
    for (var i = 0; i < entries.length; i++) {
      last = Math.max(last, parseInt(entries[i].getAttribute("data-seq"), 10) || 0);
    }
    return last;
  }

  // A stream the extension opens anew (after the browser gave up) starts after the newest
  // entry shown; the browser's own reconnects send Last-Event-ID, which the server honours.
  // A page that names its own starting point (?after=N: a sheet, the combat tracker) keeps it.
  htmx.createEventSource = function (url) {
    if (/[?&]after=/.test(url)) {
      return new EventSource(url, { withCredentials: true });
    }
    var join = url.indexOf("?") < 0 ? "?" : "&";
    return new EventSource(url + join + "after=" + lastSeq(), { withCredentials: true });
  };

  function setConnection(text, state) {
    var badge = document.getElementById("connection");
    if (badge) {
      badge.textContent = text;
      badge.setAttribute("data-state", state);
    }
  }

  // Dice no one steers (DESIGN > Principles 10): this seat's own seed for the scene, made here
  // and kept in this browser (to check its dice once the scene closes), given to the server
  // when the page opens and at each new scene. A scene whose seed is fixed already answers 409.
  function giveSeed() {
    var mark = document.getElementById("seat-seed");
    var scene = document.getElementById("scene-number");
    if (!mark || !scene || !window.crypto || !window.fetch) { return; }
    var key = "taletable-seed:" + mark.getAttribute("data-table") + ":" + scene.textContent.trim();
    var seed = null;
    try { seed = window.localStorage.getItem(key); } catch (e) { seed = null; }
    if (!seed) {
      var bytes = new Uint8Array(32);
      window.crypto.getRandomValues(bytes);
      seed = Array.prototype.map.call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      try { window.localStorage.setItem(key, seed); } catch (e) { /* kept for this page only */ }
    }
    window.fetch(mark.getAttribute("data-url"), {
      method: "POST", credentials: "same-origin", headers: { "HX-Request": "true" },
      body: new URLSearchParams({ seed: seed })
    });
  }
  // the header's scene number is swapped out of band when a scene opens: watch its holder
  var seededScene = null;
  function seedEachScene() {
    var scene = document.getElementById("scene-number");
    if (scene && scene.textContent.trim() !== seededScene) {
      seededScene = scene.textContent.trim();
      giveSeed();
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    seedEachScene();
    var scene = document.getElementById("scene-number");
    if (scene && scene.parentNode && window.MutationObserver) {
      new MutationObserver(seedEachScene).observe(
        scene.parentNode, { childList: true, subtree: true, characterData: true }
      );
    }
  });

  document.addEventListener("htmx:sseOpen", function () { setConnection("Live", "live"); });
  document.addEventListener("htmx:sseError", function () {
    setConnection("Reconnecting…", "down");
  });

  // Never show an entry twice (a replay after a reconnect may repeat the newest).
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var id = event.detail && event.detail.lastEventId;
    if (event.detail && event.detail.type === "log" && id && document.getElementById("ev-" + id)) {
      event.preventDefault();
    }
  });

  // A follow-up to an entry this page does not show (older than the entries it loaded) is
  // shown at the end of the log as its own entry, never dropped.
  document.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var content = event.detail && event.detail.content;
    var log = document.getElementById("log");
    if (!content || !log) { return; }
    Array.prototype.slice.call(content.children).forEach(function (entry) {
      if (!entry.id || !document.getElementById(entry.id)) { log.appendChild(entry); }
    });
  });

  // The log opens at its newest entry, and follows new entries while the reader is at the
  // bottom; a reader scrolled up is left where they read, and a button offers the newest.
  var followLog = true;
  function logAtBottom(log) {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }
  function showNewest(log) {
    log.scrollTop = log.scrollHeight;
    var newest = document.getElementById("log-newest");
    if (newest) { newest.hidden = true; }
  }
  // On a phone the log is no taller than the room between its top and the dock, so that its
  // newest entry sits above the dock on the first screen whatever stands above the log (a
  // fight's card comes and goes, the seats at the table wrap onto more lines); never shorter
  // than the style's minimum.
  function fitLog() {
    var log = document.getElementById("log");
    var dock = document.querySelector(".dock");
    if (!log) { return; }
    if (!dock || getComputedStyle(dock).display === "none") {
      log.style.maxHeight = "";
      return;
    }
    var top = log.getBoundingClientRect().top + window.scrollY;
    var room = dock.getBoundingClientRect().top - top - 8;
    var least = parseFloat(getComputedStyle(log).minHeight) || 0;
    log.style.maxHeight = Math.max(least, Math.floor(room)) + "px";
    if (followLog) { showNewest(log); }
  }
  window.addEventListener("resize", fitLog);
  document.addEventListener("DOMContentLoaded", function () {
    var log = document.getElementById("log");
    if (!log) { return; }
    if (window.ResizeObserver) {  // what stands above the log, as it changes
      var above = new ResizeObserver(fitLog);
      ["combat-card", "presence"].forEach(function (id) {
        var part = document.getElementById(id);
        if (part) { above.observe(part); }
      });
    }
    fitLog();
    showNewest(log);
    log.addEventListener("scroll", function () {
      followLog = logAtBottom(log);
      if (followLog) { showNewest(log); }
    });
    var newest = document.getElementById("log-newest");
    if (newest) {
      newest.addEventListener("click", function () { showNewest(log); log.focus(); });
    }
  });
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var log = document.getElementById("log");
    if (log && event.detail && event.detail.type === "log") { followLog = logAtBottom(log); }
  });
  document.addEventListener("htmx:sseMessage", function (event) {
    var log = document.getElementById("log");
    if (!log || !event.detail || event.detail.type !== "log") { return; }
    if (followLog) {
      showNewest(log);
    } else {
      var newest = document.getElementById("log-newest");
      if (newest) { newest.hidden = false; }
    }
  });

  // On a phone the rolls are a sheet opened from the dock at the bottom of the screen (on a
  // wide screen they stand beside the log, and the dock is not shown).
  function rollSheet(open, focus) {
    var sheet = document.getElementById("roll-sheet");
    var dock = document.getElementById("dock-roll");
    if (!sheet) { return; }
    sheet.classList.toggle("open", open);
    if (dock) { dock.setAttribute("aria-expanded", open ? "true" : "false"); }
    if (open && focus) {
      var first = sheet.querySelector("h2");
      if (first) { first.setAttribute("tabindex", "-1"); first.focus(); }
    } else if (!open && focus && dock) {
      dock.focus();
    }
  }
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) { return; }
    if (target.closest("#dock-roll")) {
      var sheet = document.getElementById("roll-sheet");
      rollSheet(!(sheet && sheet.classList.contains("open")), true);
    } else if (target.closest("#roll-sheet-close")) {
      rollSheet(false, true);
    } else if (target.closest(".dock a")) {
      rollSheet(false, false);
    }
  });
  document.addEventListener("keydown", function (event) {
    var sheet = document.getElementById("roll-sheet");
    if (event.key === "Escape" && sheet && sheet.classList.contains("open") &&
        sheet.contains(document.activeElement)) {
      rollSheet(false, true);
    }
  });
  // A roll taken from the sheet on a phone: the sheet closes on success and the log shows it.
  document.addEventListener("htmx:afterRequest", function (event) {
    var sheet = document.getElementById("roll-sheet");
    var form = event.detail && event.detail.elt;
    if (!sheet || !form || form.tagName !== "FORM" || !sheet.contains(form)) { return; }
    var answer = event.detail.xhr ? event.detail.xhr.responseText : "";
    var dock = document.getElementById("dock-roll");
    var phone = dock && dock.offsetParent !== null;
    if (phone && event.detail.successful && answer.indexOf("role=\"alert\"") < 0) {
      rollSheet(false, false);
      followLog = true;
      var log = document.getElementById("log");
      if (log) { showNewest(log); log.scrollIntoView({ block: "nearest" }); }
    }
  });
  // Opened from a sheet's skill (?skill=...): the roll panel is shown at once.
  document.addEventListener("DOMContentLoaded", function () {
    var sheet = document.getElementById("roll-sheet");
    if (sheet && sheet.getAttribute("data-open-roll") === "true") {
      rollSheet(true, false);
      var title = document.getElementById("roll-title");
      if (title) { title.scrollIntoView({ block: "start" }); }
    }
  });

  // The roll panel: the pool typed counts only in "a pool I type" mode, so in "a character's
  // skill" mode (where the odds and the roll use the character's pool) it is disabled and
  // shows the character's pool (from the odds, #odds-percent's data-pool); the pool typed is
  // kept (data-typed) and comes back with "a pool I type".
  function rollMode() {
    var form = document.getElementById("roll-form");
    var pool = document.getElementById("pool");
    if (!form || !pool) { return; }
    var chosen = form.querySelector("input[name=mode]:checked");
    var typing = !!(chosen && chosen.value === "pool");
    if (typing && pool.disabled && pool.hasAttribute("data-typed")) {
      pool.value = pool.getAttribute("data-typed");
      pool.removeAttribute("data-typed");
    } else if (!typing && !pool.disabled) {
      pool.setAttribute("data-typed", pool.value);
    }
    pool.disabled = !typing;
    showCharacterPool();
  }
  function showCharacterPool() {
    var pool = document.getElementById("pool");
    var shown = document.getElementById("odds-percent");
    if (pool && pool.disabled && shown && shown.getAttribute("data-pool")) {
      if (!pool.hasAttribute("data-typed")) { pool.setAttribute("data-typed", pool.value); }
      pool.value = shown.getAttribute("data-pool");
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "mode") { rollMode(); }
  });
  // The seat's first character arrived (an import, the wizard): the panel rolls with it, and
  // its odds are asked again for it (a mode checked by a script fires no change of its own).
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) { return; }
    if (target.id === "odds") { showCharacterPool(); return; }
    if (target.id !== "roll-character") { return; }
    var select = document.getElementById("character");
    var mode = document.querySelector("#roll-form input[name=mode][value=character]");
    if (select && mode && select.getAttribute("data-first-character") === "true" &&
        !mode.checked) {
      mode.checked = true;
      mode.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
  document.addEventListener("DOMContentLoaded", rollMode);
  document.addEventListener("htmx:afterSettle", rollMode);

  // A change clicked while the connection is down is never lost silently: it is not sent,
  // and the form says so (what was typed stays); one that gets no answer says so too.
  var DOWN = "Not sent: the connection to the table is down (see the top of the page). " +
    "Nothing was rolled or changed, and what you chose is kept: try again once it says Live.";
  var NO_ANSWER = "No answer from the table: the connection was lost. What you chose is " +
    "kept. Once it says Live again, look at the log: if your roll is not there, roll again.";
  function refuse(event, text) {
    var target = event.detail && (event.detail.target || event.detail.elt);
    if (!target) { return; }
    var line = document.createElement("p");
    line.className = "alert";
    line.setAttribute("role", "alert");
    line.textContent = text;
    target.replaceChildren(line);
  }
  function connectionDown() {
    var badge = document.getElementById("connection");
    return !!badge && badge.getAttribute("data-state") !== "live";
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var verb = event.detail && event.detail.requestConfig && event.detail.requestConfig.verb;
    if (verb && verb !== "get" && connectionDown()) {
      event.preventDefault();
      refuse(event, DOWN);
    }
  });
  document.addEventListener("htmx:sendError", function (event) { refuse(event, NO_ANSWER); });
  document.addEventListener("htmx:responseError", function (event) {
    var verb = event.detail && event.detail.requestConfig && event.detail.requestConfig.verb;
    if (verb && verb !== "get") { refuse(event, NO_ANSWER); }
  });

  // The combat tracker is drawn again on every step of the fight. What a seat was typing in one
  // of its forms stays when that form is still there for the same thing (its hidden fields, such
  // as the fighter declaring or the victory chosen, unchanged), and so does the focus.
  var keptForms = null;
  function formSignature(form) {
    var hidden = [];
    form.querySelectorAll("input[type=hidden]").forEach(function (field) {
      hidden.push(field.name + "=" + field.value);
    });
    return form.id + "|" + hidden.join("&");
  }
  function changedValue(field) {
    if (field.type === "checkbox") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {
      var chosen = field.options[field.selectedIndex];
      return !!chosen && !chosen.defaultSelected && field.selectedIndex !== 0;
    }
    return field.value !== field.defaultValue;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "tracker") { return; }
    keptForms = { focus: document.activeElement ? document.activeElement.id : "", forms: {} };
    target.querySelectorAll("form[id]").forEach(function (form) {
      var values = {};
      form.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
        if (field.type !== "hidden" && changedValue(field)) {
          values[field.id] = field.type === "checkbox" ? field.checked : field.value;
        }
      });
      if (Object.keys(values).length) { keptForms.forms[formSignature(form)] = values; }
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!keptForms || !target || target.id !== "tracker") { return; }
    target.querySelectorAll("form[id]").forEach(function (form) {
      var values = keptForms.forms[formSignature(form)] || {};
      Object.keys(values).forEach(function (id) {
        var field = document.getElementById(id);
        if (!field || !form.contains(field)) { return; }
        if (field.type === "checkbox") { field.checked = values[id]; return; }
        var offered = field.tagName !== "SELECT" || Array.prototype.some.call(
          field.options, function (option) { return option.value === values[id]; });
        if (offered) { field.value = values[id]; }
      });
    });
    var focused = keptForms.focus && document.getElementById(keptForms.focus);
    if (focused && target.contains(focused)) { focused.focus(); }
    keptForms = null;
  });

  // Copy buttons: <button data-copy="#element-id">.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) { return; }
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) { return; }
    var text = source.value || source.textContent;
    var done = function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done);
    } else {
      source.select && source.select();
      document.execCommand("copy");
      done();
    }
  });

  // The start page: only the chosen system's own options show (Cogent's edition, rule options
  // and house rules are Cogent's alone); the server ignores them for another system anyway.
  document.addEventListener("change", function (event) {
    if (!event.target || event.target.id !== "system") { return; }
    var chosen = event.target.value;
    document.querySelectorAll("[data-system-only]").forEach(function (block) {
      block.hidden = block.getAttribute("data-system-only") !== chosen;
    });
    document.querySelectorAll("[data-system-other]").forEach(function (note) {
      note.hidden = note.getAttribute("data-system-other").split(",").indexOf(chosen) >= 0;
    });
  });
})();
