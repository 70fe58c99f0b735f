// The published site's page script, served as is: pages work without it; each feature needs its elements.
// Hooks: html[data-theme] [data-theme-toggle] form[data-search] #reader-live figure.code button[data-copy]
// .tabs [role=tab][aria-controls] nav.toc-nav details.menu #nav-toggle (see site-page.tsx).
(() => {
  'use strict';
  const doc = document, root = doc.documentElement;
  const all = (selector, scope = doc) => [...scope.querySelectorAll(selector)];
  const closest = (target, selector) => (target instanceof Element ? target.closest(selector) : null);
  const set = (node, attributes) => {
    for (const name in attributes) node.setAttribute(name, attributes[name]);
    return node;
  };
  const el = (tag, className, text) => {
    const node = doc.createElement(tag);
    node.className = className;
    if (text != null) node.textContent = text;
    return node;
  };
  const list = (value) => (Array.isArray(value) ? value : []);
  const announce = (text) => {
    const live = doc.getElementById('reader-live');
    if (live) live.textContent = '', setTimeout(() => (live.textContent = text), 50);
  };

  // Theme: light <-> dark, saved in localStorage "theme" (the head's inline script applies it).
  function initTheme() {
    const buttons = all('[data-theme-toggle]');
    const query = matchMedia('(prefers-color-scheme: dark)');
    const dark = () => ({ dark: true, light: false })[root.dataset.theme] ?? query.matches;
    const sync = () => buttons.forEach((button) => button.setAttribute('aria-pressed', dark()));
    for (const button of buttons) {
      button.addEventListener('click', () => {
        root.dataset.theme = dark() ? 'light' : 'dark';
        sync();
        try { localStorage.setItem('theme', root.dataset.theme); } catch { /* refused: this page only */ }
      });
    }
    query.addEventListener('change', sync);
    sync();
  }

  // Search as you type, a combobox: focus stays in the field; arrows move, Enter opens, Escape closes.
  function initSearch() {
    const form = doc.querySelector('form[data-search]');
    const input = form?.querySelector('input[name="q"]');
    if (!input) return;
    const listbox = set(el('div', 'search-listbox'), { id: 'search-listbox', role: 'listbox', 'aria-label': 'Search results' });
    const status = el('p', 'search-status');
    const panel = el('div', 'search-panel');
    panel.append(listbox, status);
    panel.hidden = true;
    form.append(panel);
    set(input, { role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': listbox.id });
    let timer, controller, options = [], active = -1, shown = '';

    const select = (index) => {
      options[active]?.setAttribute('aria-selected', 'false');
      const option = options[(active = index)];
      if (!option) return input.removeAttribute('aria-activedescendant');
      option.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    };
    const open = (yes) => {
      panel.hidden = !yes;
      input.setAttribute('aria-expanded', yes);
      if (!yes) select(-1);
    };
    const reset = (message = '') => {
      select(-1);
      listbox.textContent = '';
      status.textContent = message;
      options = [];
      shown = '';
    };
    // A result: an http(s) link (a relative href resolves to this page's scheme).
    const option = (href, ...parts) => {
      const a = set(el('a', 'search-option'), { id: 'search-option-' + options.length, role: 'option', 'aria-selected': 'false', tabindex: '-1' });
      a.href = href || '';
      if (!href || !/^https?:$/.test(a.protocol)) return '';
      a.append(...parts);
      options.push(a);
      return a;
    };
    const render = (answer, query) => {
      reset();
      for (const page of list(answer?.pages)) {
        const title = String(page?.title ?? '');
        const group = set(el('div', 'search-group'), { role: 'group', 'aria-label': title });
        const crumbs = list(page?.breadcrumbs).join(' › ');
        group.append(option(page?.href, crumbs ? el('span', 'search-crumbs', crumbs) : '', el('span', 'search-title', title)));
        for (const section of list(page?.sections)) {
          const excerpt = el('span', 'search-excerpt');
          for (const run of list(section?.excerpt)) excerpt.append(run?.match ? el('mark', '', run.text) : String(run?.text ?? ''));
          group.append(option(section?.href, el('span', 'search-section', section?.title || title), excerpt));
        }
        if (group.firstElementChild) listbox.append(group);
      }
      const count = listbox.childElementCount;
      if (!count) status.textContent = `No results for “${query}”`;
      announce(count ? `${count} page${count > 1 ? 's' : ''} found` : 'No results');
      shown = query;
      open(true);
    };
    const search = async () => {
      const query = input.value.trim();
      const endpoint = form.dataset.search;
      controller?.abort();
      if (!query) return reset(), open(false);
      if (query === shown) return open(true);
      const mine = (controller = new AbortController());
      try {
        const url = endpoint + (endpoint.includes('?') ? '&' : '?') + 'q=' + encodeURIComponent(query);
        const response = await fetch(url, { signal: mine.signal, headers: { Accept: 'application/json' } });
        if (!response.ok) throw response.status;
        const answer = await response.json();
        if (!mine.signal.aborted) render(answer, query);
      } catch {
        if (!mine.signal.aborted) reset('Search failed: press Enter to search.'), open(true);
      }
    };

    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(search, 150);
    });
    input.addEventListener('keydown', (e) => {
      const count = options.length;
      if (/^Arrow(Down|Up)$/.test(e.key) && count) {
        open(true);
        select(e.key === 'ArrowDown' ? (active + 1) % count : active < 1 ? count - 1 : active - 1);
      } else if (e.key === 'Enter' && !panel.hidden && options[active]) {
        location.assign(options[active].href);
        open(false);
      } else if (e.key === 'Escape' && (!panel.hidden || input.value)) {
        if (panel.hidden) input.value = '', reset();
        open(false);
      } else return;
      e.preventDefault();
    });
    // A click on a result must not blur the field (the panel would close before the click).
    panel.addEventListener('mousedown', (e) => e.preventDefault());
    form.addEventListener('focusout', (e) => form.contains(e.relatedTarget) || open(false));
    // "/" (outside fields) and Ctrl/Cmd-K focus the field.
    doc.addEventListener('keydown', (e) => {
      const typing = e.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
      if (e.defaultPrevented || e.altKey || !(e.ctrlKey || e.metaKey ? e.key.toLowerCase() === 'k' : e.key === '/' && !typing)) return;
      e.preventDefault();
      input.focus();
      input.select();
    });
  }

  // Copy buttons of code blocks (the Clipboard API needs https or localhost).
  function initCopy() {
    const labels = new WeakMap();
    const show = (button, text) => {
      if (!labels.has(button)) labels.set(button, button.textContent);
      const say = (words) => button.firstElementChild || (button.textContent = words);
      say(text);
      announce(text);
      button.setAttribute('data-copied', '');
      clearTimeout(button.copyTimer);
      button.copyTimer = setTimeout(() => (say(labels.get(button)), button.removeAttribute('data-copied')), 1800);
    };
    doc.addEventListener('click', (e) => {
      const button = closest(e.target, 'figure.code button[data-copy]');
      const code = button?.closest('figure.code').querySelector('pre');
      if (!code) return;
      Promise.resolve()
        .then(() => navigator.clipboard.writeText(code.textContent))
        .then(() => show(button, 'Copied'), () => show(button, 'Copy failed'));
    });
  }

  // Tabs: the HTML shows every panel (no JavaScript); show the selected one only.
  function initTabs() {
    for (const container of all('.tabs')) {
      const tablist = container.querySelector('[role="tablist"]');
      const tabs = tablist ? all('[role="tab"]', tablist) : [];
      const last = tabs.length - 1;
      const choose = (index, focus) => {
        tabs.forEach((tab, i) => {
          const panel = doc.getElementById(tab.getAttribute('aria-controls'));
          tab.setAttribute('aria-selected', i === index);
          tab.tabIndex = i === index ? 0 : -1;
          if (panel) panel.hidden = i !== index;
        });
        if (focus) tabs[index].focus();
      };
      if (last < 0) continue;
      choose(Math.max(0, tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true')));
      container.setAttribute('data-enhanced', '');
      tablist.addEventListener('click', (e) => {
        const index = tabs.indexOf(closest(e.target, '[role="tab"]'));
        if (index >= 0) choose(index);
      });
      tablist.addEventListener('keydown', (e) => {
        const index = tabs.indexOf(e.target);
        const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: last }[e.key];
        if (index < 0 || next === undefined) return;
        e.preventDefault();
        choose(next > last ? 0 : next < 0 ? last : next, true);
      });
    }
  }

  // Table of contents: the first heading in the top of the viewport is current, else the last above.
  function initToc() {
    const links = new Map();
    for (const link of all('nav.toc-nav a[href^="#"]')) {
      const heading = doc.getElementById(link.getAttribute('href').slice(1));
      if (heading) links.set(heading, [...(links.get(heading) ?? []), link]);
    }
    if (!links.size || !window.IntersectionObserver) return;
    const headings = [...links.keys()];
    const top = Math.round(doc.querySelector('.site-header')?.getBoundingClientRect().height ?? 0);
    const seen = new Set();
    let current = null;
    const mark = (heading, on) => {
      for (const link of links.get(heading) ?? []) {
        link.classList.toggle('active', on);
        if (on) link.setAttribute('aria-current', 'true');
        else link.removeAttribute('aria-current');
      }
    };
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) entry.isIntersecting ? seen.add(entry.target) : seen.delete(entry.target);
      const heading = headings.find((h) => seen.has(h)) ?? headings.filter((h) => h.getBoundingClientRect().top <= top + 1).pop() ?? null;
      if (heading !== current) mark(current, false), mark((current = heading), true);
    }, { rootMargin: `-${top}px 0px -60% 0px` });
    headings.forEach((heading) => observer.observe(heading));
  }

  // Menus (details.menu) and the drawer (#nav-toggle): Escape or a click elsewhere closes them.
  function initMenus() {
    doc.addEventListener('click', (e) => {
      for (const menu of all('details.menu[open]')) if (!menu.contains(e.target)) menu.open = false;
    });
    doc.addEventListener('keydown', (e) => {
      const menu = closest(e.target, 'details.menu[open]');
      const drawer = doc.getElementById('nav-toggle');
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (menu) {
        menu.open = false;
        menu.querySelector('summary').focus();
      } else if (drawer?.checked) {
        drawer.checked = false;
        drawer.focus();
      }
    });
  }

  const start = () => {
    for (const init of [initTheme, initSearch, initCopy, initTabs, initToc, initMenus]) {
      try {
        init();
      } catch (error) {
        reportError(error); // and the other features still start
      }
    }
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', start);
  else start();
})();
