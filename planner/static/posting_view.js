// Posting page: changing priority suggests its default coverage (2 rounds for must-have, 1 for
// nice-to-have) unless the coordinator already typed a number of their own.
(function () {
  'use strict';
  document.querySelectorAll('.js-priority').forEach(function (select) {
    var input = document.getElementById(select.dataset.target);
    if (!input) { return; }
    input.addEventListener('input', function () { input.dataset.edited = '1'; });
    select.addEventListener('change', function () {
      if (input.dataset.edited !== '1') { input.value = select.value === 'must-have' ? 2 : 1; }
    });
  });
  document.querySelectorAll('.sel-accepted button[value=reject]').forEach(function (button) {
    button.addEventListener('click', function (event) {
      if (!window.confirm('Reject this accepted competency? Loop plan rounds that assess it will no longer count it.')) {
        event.preventDefault();
      }
    });
  });
})();
