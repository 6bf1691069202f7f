// xaccel sample: login, library grid, chapter list, player. No framework, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
let items = [];
let current = null;
let feedToken;                     // the user's feed token: undefined = not asked yet, null = none

function show(view) {
  $('login-view').hidden = view !== 'login';
  $('library-view').hidden = view !== 'library';
  $('session').hidden = view !== 'library';
  if (view !== 'library') { $('player').hidden = true; }
}

async function api(path, options) {
  const res = await fetch(path, Object.assign({ credentials: 'same-origin', headers: { Accept: 'application/json' } }, options));
  if (res.status === 401) { show('login'); throw new Error('unauthorized'); }
  return res;
}

function formatSize(bytes) {
  if (bytes >= 1024 * 1024) { return (bytes / 1024 / 1024).toFixed(1) + ' MB'; }
  return Math.max(1, Math.round(bytes / 1024)) + ' kB';
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') { e.className = v; } else if (k.startsWith('on')) { e.addEventListener(k.slice(2), v); } else { e.setAttribute(k, v); }
  }
  for (const c of children) { e.append(c); }
  return e;
}

async function start() {
  const res = await fetch('api/me', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.ok) {
    const me = await res.json();
    await loadLibrary(me.user, me.admin);
  } else {
    show('login');
  }
}

async function loadLibrary(user, admin) {
  $('whoami').textContent = user;
  const res = await api('api/items');
  items = await res.json();
  $('count').textContent = items.length + (items.length === 1 ? ' book' : ' books');
  const grid = $('grid');
  grid.replaceChildren(...items.map((item) => el('button', { class: 'book', type: 'button', 'data-id': item.id,
      'data-testid': 'book', onclick: () => select(item) },
    el('img', { src: item.cover || 'assets/icon.svg', alt: 'Cover of ' + item.title, loading: 'eager', 'data-testid': 'cover' }),
    el('span', { class: 'title' }, item.title),
    el('span', { class: 'author' }, ...authorPicture(item), item.author))));
  show('library');
  if (items.length) { select(items[0]); }
  $('stats').hidden = !admin;
  if (admin) { await loadStats(); }
}

// Admins: the delivery receipts the sample tallied (GET api/stats, "deliveries"), named by the library's items.
async function loadStats() {
  const res = await api('api/stats');
  if (!res.ok) { $('stats').hidden = true; return; }
  const d = (await res.json()).deliveries;
  if (!d) {
    $('stats-totals').textContent = 'Delivery receipts are off.';
    $('stats-chapters').replaceChildren();
    $('stats-enclosures').replaceChildren();
    $('stats-covers').replaceChildren();
    $('stats-users').replaceChildren();
    return;
  }
  $('stats-totals').textContent = d.complete + ' completed, ' + d.aborted + ' aborted, ' + d.unreceipted
    + ' unreceipted, ' + d.enclosureFetches + ' podcast enclosure fetches, ' + d.coverFetches + ' cover fetches'
    + (d.overflow ? ', ' + d.overflow + ' not tallied (bound reached)' : '');
  const byId = new Map(items.map((i) => [i.id, i]));
  $('stats-chapters').replaceChildren(...d.chapters.map((c) => {
    const item = byId.get(c.book);
    const file = item && item.files[c.chapter];
    return el('tr', {}, el('td', {}, item ? item.title : c.book), el('td', {}, file ? file.name : String(c.chapter + 1)),
      el('td', { class: 'num' }, String(c.complete)), el('td', { class: 'num' }, String(c.aborted)));
  }));
  // a feed's enclosure is named by its file, as the feed's episodes are
  $('stats-enclosures').replaceChildren(...d.enclosures.map((e) => {
    const item = byId.get(e.book);
    return el('tr', {}, el('td', {}, item ? item.title : e.book), el('td', {}, e.file),
      el('td', { class: 'num' }, String(e.complete)), el('td', { class: 'num' }, String(e.aborted)));
  }));
  // a cover by its book's title; an author's picture by the author's name
  $('stats-covers').replaceChildren(...d.covers.map((c) => {
    const item = c.book && byId.get(c.book);
    const what = c.book ? (item ? item.title : c.book) : c.author + ' (author)';
    return el('tr', {}, el('td', {}, what), el('td', {}, c.file),
      el('td', { class: 'num' }, String(c.complete)), el('td', { class: 'num' }, String(c.aborted)));
  }));
  $('stats-users').replaceChildren(...Object.entries(d.bytesPerUser).map(([u, b]) =>
    el('tr', {}, el('td', {}, u), el('td', { class: 'num' }, formatSize(b)))));
}

// The author's picture (Author/author.jpg, a signed link behind nginx), when the library has one.
function authorPicture(item) {
  if (!item.authorPicture) { return []; }
  return [el('img', { class: 'avatar', src: item.authorPicture, alt: '', width: 22, height: 22, loading: 'eager',
    'data-testid': 'author-picture' })];
}

function select(item) {
  current = item;
  document.querySelectorAll('.book').forEach((b) => b.classList.toggle('selected', b.dataset.id === item.id));
  $('detail').hidden = false;
  $('detail-cover').src = item.cover || 'assets/icon.svg';
  $('detail-cover').alt = 'Cover of ' + item.title;
  $('detail-title').textContent = item.title;
  $('detail-author').textContent = item.author;
  $('chapters').replaceChildren(...item.files.map((f) => el('li', { 'data-index': f.index, 'data-testid': 'chapter' },
    el('button', { class: 'play', type: 'button', 'data-testid': 'play', onclick: () => play(item, f) }, '▶ Play'),
    el('span', { class: 'name' }, f.name),
    el('span', { class: 'size' }, formatSize(f.size)),
    el('a', { href: f.download, 'data-testid': 'download', title: 'Download (X-Accel-Redirect, attachment)' }, 'Download'),
    el('a', { href: f.library, target: '_blank', rel: 'noopener', title: 'The same file through the filter\u2019s mapped mode' }, 'Direct link'))));
  $('feed').hidden = !item.feed;   // null when feeds are off (no nginx to serve their signed enclosures)
  $('feed-url').hidden = true;
  $('feed-status').textContent = '';
}

// ---- podcast feeds: /feeds/<id>.xml?token=<the user's feed token> ------------------------------------------
async function issueFeedToken() {
  const res = await api('api/feed-token', { method: 'POST' });
  if (!res.ok) { throw new Error('feed token: ' + res.status); }
  feedToken = (await res.json()).token;
  return feedToken;
}

async function currentFeedToken() {
  if (feedToken === undefined) {
    const res = await api('api/feed-token');
    feedToken = res.ok ? (await res.json()).token : null;
  }
  return feedToken || issueFeedToken();
}

function feedUrl(item, token) {
  return new URL(item.feed + '?token=' + encodeURIComponent(token), location.href).href;
}

function feedStatus(text) { $('feed-status').textContent = text; }

async function copyFeedUrl() {
  const item = current;
  const url = feedUrl(item, await currentFeedToken());
  const input = $('feed-url');
  input.value = url;
  input.hidden = false;
  try {
    await navigator.clipboard.writeText(url);
    feedStatus('Copied. Add it to your podcast app; keep it private: the token in it works like a password.');
  } catch (e) {
    input.focus();
    input.select();
    feedStatus('Copy the selected URL (the browser did not allow writing to the clipboard).');
  }
}

$('copy-feed').addEventListener('click', () => copyFeedUrl().catch((e) => feedStatus('Failed: ' + e.message)));
$('new-feed-token').addEventListener('click', async () => {
  try {
    const token = await issueFeedToken();
    if (!$('feed-url').hidden) { $('feed-url').value = feedUrl(current, token); }
    feedStatus('New feed token: feed URLs with the old one stop working on their next refresh.');
  } catch (e) { feedStatus('Failed: ' + e.message); }
});
$('revoke-feed-token').addEventListener('click', async () => {
  const res = await api('api/feed-token', { method: 'DELETE' });
  if (res.ok) {
    feedToken = null;
    $('feed-url').hidden = true;
    $('feed-url').value = '';
    feedStatus('Feed token revoked: every feed URL with it stops working on its next refresh'
      + ' (episode links a podcast app already has keep working until they expire).');
  } else { feedStatus('Failed: ' + res.status); }
});

function play(item, file) {
  const audio = $('audio');
  $('player').hidden = false;
  $('player-cover').src = item.cover || 'assets/icon.svg';
  $('now-title').textContent = file.name;
  $('now-book').textContent = item.title + ' \u2014 ' + item.author;
  document.querySelectorAll('#chapters li').forEach((li) => li.classList.toggle('playing',
    current === item && Number(li.dataset.index) === file.index));
  audio.src = file.url;
  audio.play().catch(() => { /* autoplay refused: the controls are there */ });
}

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('login-error').hidden = true;
  const body = new URLSearchParams({ user: $('user').value, password: $('password').value });
  const res = await fetch('api/login', { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.ok) {
    const login = await res.json();
    $('password').value = '';
    await loadLibrary(login.user, login.admin);
  } else {
    $('login-error').textContent = res.status === 401 ? 'Wrong user name or password.' : 'Login failed (' + res.status + ').';
    $('login-error').hidden = false;
  }
});

$('logout').addEventListener('click', async () => {
  const audio = $('audio');
  audio.pause();
  audio.removeAttribute('src');
  await fetch('api/logout', { method: 'POST', credentials: 'same-origin' });
  items = [];
  feedToken = undefined;
  $('feed-url').value = '';
  $('grid').replaceChildren();
  $('detail').hidden = true;
  $('stats').hidden = true;
  show('login');
});

$('refresh-stats').addEventListener('click', loadStats);

start();
