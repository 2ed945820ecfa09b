// The candidate's pages: show times in the zone the browser is in, without the candidate having to ask.
// Only while the loop still carries the coordinator's guess (the form has data-detect-zone): once the
// candidate's browser or choice has set the zone, the page never changes it again.
(function () {
  'use strict';

  function detectedZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
    } catch (error) {
      return null;
    }
  }

  document.addEventListener('DOMContentLoaded', function () {
    var form = document.querySelector('form[data-detect-zone]');
    if (!form) { return; }
    var select = form.querySelector('select[name="timezone"]');
    var zone = detectedZone();
    if (!select || !zone || select.value === zone) { return; }
    var known = Array.prototype.some.call(select.options, function (option) { return option.value === zone; });
    if (!known) { return; }
    select.value = zone;
    form.querySelector('input[name="detected"]').value = '1';
    form.setAttribute('aria-busy', 'true');
    form.submit();
  });
}());
