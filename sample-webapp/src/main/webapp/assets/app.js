// xaccel sample: login, library grid, chapter list, player. No framework, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
let items = [];
let current = null;

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
    await loadLibrary(me.user);
  } else {
    show('login');
  }
}

async function loadLibrary(user) {
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
}

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
    await loadLibrary(login.user);
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
  $('grid').replaceChildren();
  $('detail').hidden = true;
  show('login');
});

start();
