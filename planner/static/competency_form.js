// New competency: suggest a slug from the name until the coordinator types one of their own.
(function () {
  'use strict';
  var name = document.getElementById('name'), slug = document.getElementById('slug');
  if (!name || !slug) { return; }
  var touched = slug.value !== '';
  slug.addEventListener('input', function () { touched = slug.value !== ''; });
  name.addEventListener('input', function () {
    if (touched) { return; }
    slug.value = name.value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
      .replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80);
  });
})();
