// "Browse by material": every 3-5 piece material, marked by whether the
// configured host has its tables (those of 3-4 pieces it lacks are solved
// in the browser), each with positions to start from (a random
// legal one; the longest DTZ and a cursed win found by
// scripts/notable-positions.mjs on the demo tables) and its offline download
// size. The host is asked (HEAD requests, materials.js) on first opening,
// and again where that found nothing while offline.
import { h, icon, ICONS, replace, formatBytes } from './dom.js';
import { allMaterials, materialPieces, offline, offlineBytes, randomPosition, reachableMaterials } from './materials.js';
import notable from './notable-positions.json';

/** The most pieces a material the host lacks may have to be solved in the browser (the board's `generate: 'auto'`). */
const MADE_HERE = 4;

/** callbacks: scan() -> Promise<Map offered>, load(fen), save(material) */
export function createBrowser(callbacks) {
  const status = h('p.sb-hint.sb-browse-status', { 'aria-live': 'polite' });
  const groups = h('div.sb-browse-groups');
  const detail = h('div.sb-browse-detail', { 'aria-live': 'polite' });
  const el = h('details.sb-card.sb-browse', h('summary.sb-card-title', 'Browse by material'), status, detail, groups);
  let offered = null;
  let selected = null;

  // Asked again on opening where the last scan found nothing while offline.
  let scannedOffline = false;
  el.addEventListener('toggle', () => {
    if (el.open && (!offered || (scannedOffline && !offered.size))) scan();
  });

  async function scan() {
    scannedOffline = offline();
    status.textContent = 'Asking the host which tables it has…';
    offered = new Map();
    try {
      offered = await callbacks.scan();
    } catch {
      offered = new Map();
    }
    const n = offered.size;
    const made = allMaterials().filter(madeHere).length;
    const solved = made ? ` ${made === 1 ? 'The one material' : `The ${made} materials`} of 3 or 4 pieces it lacks ${made === 1 ? 'is' : 'are'} solved in this browser when you open ${made === 1 ? 'it' : 'one'}.` : '';
    status.textContent = n
      ? `This host has ${n} of the ${allMaterials().length} materials with 3 to 5 pieces. Pick one to start from a position.${solved} (Only 3-5 pieces are listed; larger positions are probed when the host has their tables.)`
      : `The host did not answer, or has none of these tables.${solved}`;
    render();
  }

  /**
   * Whether `name` is not on the host but solved in the browser: up to 4
   * pieces, where the host answered that it lacks them (one that did not
   * answer, offline or down, gets a network error: nothing is made).
   */
  function madeHere(name) {
    return !offered.has(name) && materialPieces(name) <= MADE_HERE && offered.answered === true;
  }

  function render() {
    const byCount = new Map();
    for (const name of allMaterials()) {
      const k = materialPieces(name);
      if (!byCount.has(k)) byCount.set(k, []);
      byCount.get(k).push(name);
    }
    replace(
      groups,
      [...byCount].map(([k, names]) =>
        h(
          'section.sb-browse-group',
          h('h3.sb-browse-count', `${k} pieces`, h('small', ` ${names.filter((n) => offered.has(n)).length} of ${names.length} here${countMade(names)}`)),
          h(
            'div.sb-browse-chips',
            names.map((name) => {
              const here = offered.has(name);
              const made = madeHere(name);
              return h(
                'button.sb-chip.sb-mat',
                {
                  type: 'button',
                  dataset: made ? { material: name, made: 'true' } : { material: name },
                  disabled: !here && !made,
                  'aria-pressed': String(selected === name),
                  title: here
                    ? `${name}: ${formatBytes(offered.get(name).wdl + offered.get(name).dtz)}`
                    : made
                      ? `${name} is not on this host: solved in this browser`
                      : `${name} is not on this host`,
                  onclick: () => select(name),
                },
                name,
              );
            }),
          ),
        ),
      ),
    );
  }

  /** ", N solved in this browser" for a group with materials made here. */
  function countMade(names) {
    const n = names.filter(madeHere).length;
    return n ? `, ${n} solved in this browser` : '';
  }

  function select(name) {
    selected = name;
    for (const b of groups.querySelectorAll('.sb-mat')) b.setAttribute('aria-pressed', String(b.dataset.material === name));
    const notes = notable[name] || {};
    const own = offered.get(name);
    const start = (fen, label, cls = '') => h(`button.sb-btn${cls}`, { type: 'button', onclick: () => callbacks.load(fen) }, label);
    const starts = [
      h('button.sb-btn.sb-primary', { type: 'button', onclick: () => callbacks.load(randomPosition(name)) }, 'Random position'),
      notes.longest ? start(notes.longest.fen, `Long win: DTZ ${Math.abs(notes.longest.dtz)}`, '.sb-notable-longest') : null,
      notes.cursed ? start(notes.cursed.fen, `Cursed win: DTZ ${Math.abs(notes.cursed.dtz)}`, '.sb-notable-cursed') : null,
    ];
    // Not on the host: the first position opened solves it here (and what
    // its captures and promotions reach), kept for offline use.
    if (!own) {
      replace(
        detail,
        h('h3.sb-browse-name', name),
        h('p.sb-browse-size', 'Not on this host: the first position you open is solved in this browser, with distances to mate, and the table is kept for offline use.'),
        h('div.sb-row.sb-browse-actions', starts),
      );
      return;
    }
    const reach = reachableMaterials(name).filter((m) => m !== name && offered.has(m)).length;
    const total = offlineBytes(name, offered);
    replace(
      detail,
      h('h3.sb-browse-name', name),
      h(
        'p.sb-browse-size',
        `Tables ${formatBytes(own.wdl + own.dtz)}; offline download ${formatBytes(total)}`,
        reach ? ` (with the ${reach} material${reach === 1 ? '' : 's'} its captures and promotions reach)` : '',
        '.',
      ),
      h(
        'div.sb-row.sb-browse-actions',
        starts,
        h('button.sb-btn', { type: 'button', onclick: () => callbacks.save(name) }, icon(ICONS.download), `Save for offline (${formatBytes(total)})`),
      ),
    );
  }

  return {
    el,
    /** Opens the browser and brings it into view. */
    open() {
      el.open = true;
      el.scrollIntoView({ block: 'nearest' });
      el.querySelector('summary').focus();
    },
    /** The last scan's answer, or null before the first opening. */
    get offered() {
      return offered;
    },
  };
}
