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

  // Keep the newest entry in view when the reader is already at the bottom.
  document.addEventListener("htmx:sseMessage", function (event) {
    var log = document.getElementById("log");
    if (log && event.detail && event.detail.type === "log") {
      log.scrollTop = log.scrollHeight;
    }
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
      note.hidden = chosen === "cogent";
    });
  });
})();
