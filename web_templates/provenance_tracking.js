// Cross-highlighting of the provenance page: each pane's text is split into numbered rows, and a
// row's corresponding rows in the other panes (from the embedded line mappings) are highlighted.
(function () {
  'use strict';
  const mappings = JSON.parse(document.getElementById('lineMappings').textContent.trim() || '{}');
  const map = (name) => mappings[name] || {};
  const rows = {};         // pane id -> row elements, index = line - 1
  let codeIsCpp = false;   // the generated code is the AOTInductor C++ wrapper
  let pinned = null;       // {paneId, line} kept highlighted after a click

  // Splits the pane's <pre> into one row per line, keeping the markup (colours) of each piece.
  function buildRows(paneId) {
    const editor = document.getElementById(paneId);
    const source = editor.querySelector('pre');
    const list = [];
    let content = null;
    const newRow = () => {
      const row = document.createElement('div');
      row.className = 'line';
      const number = document.createElement('span');
      number.className = 'line-number';
      number.textContent = String(list.length + 1);
      content = document.createElement('span');
      content.className = 'line-content';
      row.append(number, content);
      list.push(row);
    };
    newRow();
    const walk = (node, wrap) => {
      if (node.nodeType === Node.TEXT_NODE) {
        node.textContent.split('\n').forEach((piece, i) => {
          if (i > 0) newRow();
          if (piece) content.appendChild(wrap(document.createTextNode(piece)));
        });
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        // A nested <pre> (the highlighted Python fragment) only contributes its children.
        const inner = node.tagName === 'PRE' ? wrap : (child) => {
          const copy = node.cloneNode(false);
          copy.appendChild(child);
          return wrap(copy);
        };
        node.childNodes.forEach((child) => walk(child, inner));
      }
    };
    if (source) source.childNodes.forEach((child) => walk(child, (x) => x));
    if (source && source.textContent.endsWith('\n')) list.pop();  // no row after a final line break
    // One fragment and delegated listeners: generated code can have hundreds of thousands of lines.
    const fragment = document.createDocumentFragment();
    list.forEach((row, index) => {
      row.dataset.line = String(index + 1);
      fragment.appendChild(row);
    });
    editor.replaceChildren(fragment);
    rows[paneId] = list;
    let hovered = null;
    editor.addEventListener('mouseover', (event) => {
      const row = event.target.closest('.line');
      if (!row || row === hovered) return;
      hovered = row;
      if (!pinned) show(paneId, Number(row.dataset.line), true);
    });
    editor.addEventListener('mouseleave', () => {
      hovered = null;
      if (!pinned) clear();
    });
    editor.addEventListener('click', (event) => {
      const row = event.target.closest('.line');
      if (row) pin(paneId, Number(row.dataset.line));
    });
  }

  const codeToPost = () => map(codeIsCpp ? 'cppCodeToPost' : 'pyCodeToPost');
  const postToCode = () => map(codeIsCpp ? 'postToCppCode' : 'postToPyCode');
  const union = (lines, table) => lines.flatMap((line) => table[line] || []);

  // The rows of the other panes that correspond to `line` of `paneId`.
  function corresponding(paneId, line) {
    if (paneId === 'preGradGraph') {
      const post = map('preToPost')[line] || [];
      return { postGradGraph: post, generatedCode: union(post, postToCode()) };
    }
    if (paneId === 'postGradGraph') {
      return { preGradGraph: map('postToPre')[line] || [], generatedCode: postToCode()[line] || [] };
    }
    const post = codeToPost()[line] || [];
    return { postGradGraph: post, preGradGraph: union(post, map('postToPre')) };
  }

  function clear() {
    document.querySelectorAll('.line.highlight, .line.pinned').forEach((row) => row.classList.remove('highlight', 'pinned'));
  }

  function show(paneId, line, scroll) {
    clear();
    const own = rows[paneId][line - 1];
    if (own) own.classList.add(pinned ? 'pinned' : 'highlight');
    Object.entries(corresponding(paneId, line)).forEach(([otherId, lines]) => {
      const targets = lines.map((n) => rows[otherId][n - 1]).filter(Boolean);
      targets.forEach((row) => row.classList.add('highlight'));
      if (scroll && targets.length) targets[Math.floor(targets.length / 2)].scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
  }

  function pin(paneId, line) {
    pinned = { paneId, line };
    show(paneId, line, true);
  }

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      pinned = null;
      clear();
    }
  });

  // Dragging a divider moves the boundary between the panes on either side of it.
  function setupDivider(divider) {
    const left = divider.previousElementSibling;
    const right = divider.nextElementSibling;
    divider.addEventListener('mousedown', (down) => {
      down.preventDefault();
      const startX = down.clientX;
      const leftWidth = left.getBoundingClientRect().width;
      const rightWidth = right.getBoundingClientRect().width;
      const move = (event) => {
        const delta = Math.max(-leftWidth + 80, Math.min(rightWidth - 80, event.clientX - startX));
        left.style.flex = `0 0 ${leftWidth + delta}px`;
        right.style.flex = `0 0 ${rightWidth - delta}px`;
      };
      const up = () => {
        document.removeEventListener('mousemove', move);
        document.removeEventListener('mouseup', up);
      };
      document.addEventListener('mousemove', move);
      document.addEventListener('mouseup', up);
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    codeIsCpp = document.getElementById('generatedCode').textContent.includes('AOTInductorModel::run_impl');
    ['preGradGraph', 'postGradGraph', 'generatedCode'].forEach(buildRows);
    const matched = {
      preGradGraph: [map('preToPost')],
      postGradGraph: [map('postToPre'), postToCode()],
      generatedCode: [codeToPost()],
    };
    Object.entries(matched).forEach(([paneId, tables]) => {
      rows[paneId].forEach((row, index) => {
        if (tables.some((table) => (table[index + 1] || []).length > 0)) row.classList.add('has-match');
      });
    });
    document.querySelectorAll('.divider').forEach(setupDivider);
    const runImpl = rows.generatedCode.find((row) => row.textContent.includes('AOTInductorModel::run_impl('));
    if (codeIsCpp && runImpl) runImpl.scrollIntoView({ block: 'center' });
  });
})();
