// Saeng admin page: progressive enhancement only. Every page works without this script (plain forms); with it,
// deletions ask first, and uploads go one file per request with progress. Loaded from this origin (the
// Content-Security-Policy allows no inline script).

/** Forms marked data-confirm ask before they post (deleting a document or a knowledge base). */
function confirmForms() {
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm ?? '')) event.preventDefault();
    });
  }
}

/** `{name}` placeholders of the page's texts (no regex: names are short and fixed). */
function fillText(template, values) {
  let text = template ?? '';
  for (const [name, value] of Object.entries(values)) text = text.split(`{${name}}`).join(String(value));
  return text;
}

/**
 * The upload form (#upload-form) of a knowledge base's page: files chosen in #upload-files or dropped on
 * #drop-zone are sent one at a time, one per request (XMLHttpRequest: it reports upload progress), each with a
 * line in #upload-list. The server answers NDJSON: "progress" lines while a scan is read by OCR, then a "result"
 * line (ok and its text, ✅ or ❌). Without this script the form posts all the files at once and the page reloads.
 */
function uploads() {
  const form = document.getElementById('upload-form');
  const input = document.getElementById('upload-files');
  const zone = document.getElementById('drop-zone');
  const list = document.getElementById('upload-list');
  const refresh = document.getElementById('upload-refresh');
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || !zone || !list) return;
  const texts = form.dataset;
  const url = texts.uploadUrl ?? '';
  const maxBytes = Number(texts.maxBytes);
  const csrf = document.body.dataset.csrf ?? '';
  const queue = [];
  let running = false;

  const entryFor = (file) => {
    const item = document.createElement('li');
    item.className = 'upload';
    item.dataset.state = 'waiting';
    const name = document.createElement('span');
    name.className = 'upload-name';
    name.textContent = file.name;
    const bar = document.createElement('progress');
    bar.className = 'upload-progress';
    bar.max = 100;
    bar.value = 0;
    const status = document.createElement('span');
    status.className = 'upload-status';
    status.textContent = texts.textWaiting ?? '';
    item.append(name, ' ', bar, ' ', status);
    list.append(item);
    return { item, bar, status };
  };

  const show = (entry, state, text) => {
    entry.item.dataset.state = state;
    entry.status.textContent = text;
    if (state === 'done' || state === 'failed') {
      entry.bar.max = 1;
      entry.bar.value = 1;
    }
  };

  const send = (file, entry) =>
    new Promise((resolve) => {
      const request = new XMLHttpRequest();
      let read = 0;
      let result;
      // The answer so far: whole lines only (the last one may still be arriving).
      const readLines = (all) => {
        const text = request.responseText;
        for (;;) {
          let end = text.indexOf('\n', read);
          if (end === -1 && all && read < text.length) end = text.length;
          if (end === -1) return;
          const line = text.slice(read, end).trim();
          read = end + 1;
          if (line === '') continue;
          let parsed;
          try {
            parsed = JSON.parse(line);
          } catch {
            continue;
          }
          if (parsed.type === 'progress') {
            entry.bar.max = Math.max(1, Number(parsed.pages) || 1);
            entry.bar.value = Number(parsed.page) || 0;
            show(entry, 'reading', String(parsed.text ?? ''));
          } else if (parsed.type === 'result') {
            result = parsed;
          }
        }
      };
      request.open('POST', url);
      request.setRequestHeader('x-csrf-token', csrf);
      request.setRequestHeader('accept', 'application/x-ndjson');
      request.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) entry.bar.value = Math.round((event.loaded / event.total) * 100);
      });
      request.upload.addEventListener('load', () => show(entry, 'reading', texts.textReading ?? ''));
      request.addEventListener('progress', () => readLines(false));
      request.addEventListener('loadend', () => {
        readLines(true);
        if (result) show(entry, result.ok === true ? 'done' : 'failed', String(result.text ?? ''));
        else show(entry, 'failed', fillText(texts.textFailed, { name: file.name, status: request.status || '—' }));
        resolve();
      });
      const body = new FormData();
      body.append('files', file, file.name);
      show(entry, 'sending', texts.textSending ?? '');
      request.send(body);
    });

  const drain = async () => {
    if (running) return;
    running = true;
    while (queue.length > 0) {
      const { file, entry } = queue.shift();
      // The server refuses it too (413); asking first spares sending it.
      if (Number.isFinite(maxBytes) && file.size > maxBytes) show(entry, 'failed', fillText(texts.textTooLarge, { name: file.name }));
      else await send(file, entry);
    }
    running = false;
    if (refresh) refresh.hidden = false;
  };

  const add = (files) => {
    for (const file of files) queue.push({ file, entry: entryFor(file) });
    void drain();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    add([...(input.files ?? [])]);
    input.value = '';
  });
  zone.hidden = false;
  zone.tabIndex = 0;
  zone.setAttribute('role', 'button');
  zone.addEventListener('click', () => input.click());
  zone.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    input.click();
  });
  for (const name of ['dragenter', 'dragover']) {
    zone.addEventListener(name, (event) => {
      event.preventDefault();
      zone.classList.add('dragging');
    });
  }
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    add([...(event.dataTransfer?.files ?? [])]);
  });
  // A file dropped beside the zone would otherwise open in the tab, leaving the page.
  for (const name of ['dragover', 'drop']) document.addEventListener(name, (event) => event.preventDefault());
}

document.addEventListener('DOMContentLoaded', () => {
  confirmForms();
  uploads();
});
