// The scripts' words (issue 45), written once for every script of the site: the console's, the
// round's clock, the offline round and the page that pairs a round on the phone read them
// through `window.GuildhallI18n` instead of each keeping its own copy.
//
// `{% js_catalog %}` (core/templatetags/languages.py) loads the page's catalogue
// (/jsi18n/<lang>.js, Django's JavaScriptCatalog) and then this script, both deferred and
// before the page's own scripts. Each function asks the catalogue when it is called, so it
// translates whichever of the two ran first; without the catalogue (the phone offline with no
// copy of it kept, or its request failed) the words are the English as written, with English
// plurals (1 and the rest). The service worker keeps this file with the offline round's others
// (tournaments/templatetags/offline.py).
//
// - gettext(text), ngettext(singular, plural, n), pgettext(context, text): as Django's;
// - npgettext(context, singular, plural, n): as Django's;
// - fill(format, values): `format`'s named placeholders %(name)s filled from `values` (Django's
//   `interpolate(format, values, true)`), after translation: fill(gettext("Table %(table)s"),
//   {table: 3});
// - note(data): a sentence of the Python domain's before translation, as `Note.data()` keeps it
//   ({msgid, plural, count, context, params}; a value {note: ...} is a sentence of its own, and
//   {list: [...]} a list joined the reader's way), in the page's language: the phone's own
//   pairing hands its warnings and refusals out so (tournaments/domain/texts.py), and the
//   catalogue carries their words (core.hooks.script_words). A plain text is kept as it is.
(function () {
  "use strict";

  function catalogue() {
    var django = window.django;
    return django && typeof django.gettext === "function" ? django : null;
  }

  function gettext(text) {
    var django = catalogue();
    return django ? django.gettext(text) : text;
  }

  function ngettext(singular, plural, n) {
    var django = catalogue();
    if (django) {
      return django.ngettext(singular, plural, n);
    }
    return n === 1 ? singular : plural;
  }

  function pgettext(context, text) {
    var django = catalogue();
    return django ? django.pgettext(context, text) : text;
  }

  function npgettext(context, singular, plural, n) {
    var django = catalogue();
    if (django) {
      return django.npgettext(context, singular, plural, n);
    }
    return n === 1 ? singular : plural;
  }

  function fill(format, values) {
    return String(format).replace(/%\((\w+)\)s/g, function (match, name) {
      return String(values[name]);
    });
  }

  function noteValue(value) {
    if (value && typeof value === "object") {
      if (value.note) {
        return note(value.note);
      }
      if (Array.isArray(value.list)) {
        return value.list.map(noteValue).join(pgettext("between the items of a list", "; "));
      }
    }
    return value;
  }

  function note(data) {
    if (typeof data === "string") {
      return data;
    }
    if (!data || typeof data.msgid !== "string") {
      return String((data && data.text) || "");
    }
    var text;
    if (typeof data.plural === "string") {
      text = data.context
        ? npgettext(data.context, data.msgid, data.plural, data.count)
        : ngettext(data.msgid, data.plural, data.count);
    } else {
      text = data.context ? pgettext(data.context, data.msgid) : gettext(data.msgid);
    }
    var params = data.params || {};
    var names = Object.keys(params);
    if (!names.length) {
      return text; // as Python's: no `%` step without values
    }
    var values = {};
    names.forEach(function (name) {
      values[name] = noteValue(params[name]);
    });
    return String(text).replace(/%\((\w+)\)s|%%/g, function (match, name) {
      return name === undefined ? "%" : String(values[name]);
    });
  }

  window.GuildhallI18n = {
    gettext: gettext,
    ngettext: ngettext,
    pgettext: pgettext,
    npgettext: npgettext,
    fill: fill,
    note: note,
  };
})();
