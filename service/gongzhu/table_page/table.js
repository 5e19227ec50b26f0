/* The deal table page (docs/table.md). Every rule comes from the service's
   public API (/deal, /legal-moves, /view, /play, /exposures, /score, /ingots,
   /suggest, /claim, /review): this script only draws what the answers say. */
'use strict';

(() => {
  const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
  const SUIT_ORDER = 'SHDC';
  const RANK_ORDER = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
  const SPECIAL = { SQ: 'pig', DJ: 'sheep', C10: 'transformer' };
  const SEATS = [0, 1, 2, 3];
  const SUGGEST_BUDGET_MS = 200;
  const SUGGEST_SEED = 1;
  // A review of the whole deal, seeded, at the API's default budget (no budget_ms sent), so the page shows what
  // curl shows for the same deal and seed; the answer says which budget it had (docs/table.md).
  const REVIEW_SEED = 1;
  // A loss of this many raw-score points or more is large: the heart ace's 50 (docs/table.md).
  const LARGE_LOSS = 50;
  const MAX_BEST_SHOWN = 2;
  const MAX_MOVE_CHIPS = 40;
  const LANGUAGE_HEADER = { en: 'en', zh: 'zh-CN' };
  // The page's own control behind a field of a request it sends.
  const CONTROLS = { '/seed': 'seed', '/rules/decks': 'decks', '/claim/kind': 'claim-kind', '/claim': 'claim-kind' };

  const ordinal = (n) => `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10] || 'th'}`;

  const TEXT = {
    en: {
      title: 'Gong Zhu deal table', load: 'Load a deal', seed: 'Seed', decks: 'Decks', deal: 'Deal',
      paste: 'Or paste a deal state (the JSON body /legal-moves accepts):', load_json: 'Load JSON',
      suggest: 'Suggest', claim: 'Claim', all_tricks: 'takes every trick', no_tricks: 'takes no trick',
      solve: 'Best play, cards open', solve_title: (s, n) => `Seat ${s}, cards open, ${n} tricks left:`,
      solve_cut: 'the budget ran out: bounds', share: 'Share', curl: 'Copy as curl', footer: 'Every answer comes from this service\'s public API.',
      seat: (s) => `Seat ${s}`, to_play: 'to play', points: 'points', taken: 'Taken',
      trick: (n) => `Trick ${n}`, led_by: (s) => `led by seat ${s}`, winning: 'winning',
      last_trick: (n, s) => `Trick ${n}, won by seat ${s}`, moves: (s) => `Legal moves of seat ${s}`,
      more_moves: (n) => `… and ${n} more`, position: (c, t) => `play ${c} / ${t}`,
      finished: 'The deal is over', sheet: 'Score sheet', hearts: 'Hearts', pig: 'Pig', sheep: 'Sheep',
      transformer: 'Transformer', raw: 'Raw', normalized: 'Normalized', partnership: 'Partnership',
      final: 'Final', notes: 'Notes', all_hearts: 'all hearts (满红)', grand_slam: 'grand slam (满贯)',
      ingots: 'Ingots (元宝)', transfers: 'Transfers', pays: (a, b, n) => `seat ${a} pays seat ${b} ${n}`,
      multiplier: 'room multiplier 1, no fee', rules: 'Rules in force',
      values: (shown) => `Card values, ${shown ? `${shown} exposed` : 'none exposed'}`,
      transformer_rest: (f) => `; with C10, the rest ×${f}`,
      yes: 'yes', no: 'no', rule_decks: 'decks', rule_partnership: 'partnership',
      rule_opening_card: 'opening card', rule_must_lead_opening_card: 'must lead the opening card',
      rule_first_trick_ban: 'first-trick ban', rule_pig_flips_with_all_hearts: 'pig flips with all hearts',
      exposed: 'exposed', copy: (n) => `copy ${n}`,
      colon: ': ', whole_body: 'the whole body',
      at_hand: (s, i, c) => `seat ${s}'s hand, card ${i + 1}${c ? ': ' + c : ''}`,
      at_seat_hand: (s) => `seat ${s}'s hand`,
      at_exposed: (s, i, c) => `seat ${s}'s exposure ${i + 1}${c ? ': ' + c : ''}`,
      at_play: (n, s, c) => `plays[${n}], the deal's ${ordinal(n + 1)} play (trick ${Math.floor(n / 4) + 1})${s === null ? '' : ' by seat ' + s}${c ? ': ' + c : ''}`,
      at_move: (c) => `the move${c ? ': ' + c : ''}`, at_leader: (v) => `the leader: seat ${v}`,
      at_rule: (r, v) => `rule ${r} = ${v}`, at_field: (f, v) => `${f}${v === undefined ? '' : ' = ' + v}`,
      rejected: (s) => `Rejected play${s === null ? '' : ' of seat ' + s}`,
      suggestion: (s, m) => `Seat ${s} would play ${m}`,
      reason_only_move: 'the only legal play', reason_interchangeable: 'the lowest of interchangeable plays',
      reason_monte_carlo: (n) => `search over ${n} playouts`,
      reason_exact_endgame: (n) => `${n} exact endgame solves`, budget_cut: 'cut by the clock',
      play_it: 'Play it', holds_true: (s, k) => `Claim holds: seat ${s} ${k}`,
      holds_false: (s, k) => `Claim fails: seat ${s} ${k} — refutation:`,
      holds_null: (s, k) => `Undecided (search budget): seat ${s} ${k}`,
      claim_score: 'Raw scores if the claim is granted', play_refutation: 'Play the refutation',
      positions: (n) => `${n} positions searched`, copied: 'copied to the clipboard', select_copy: 'select and copy',
      bad_fragment: 'The URL fragment is not base64url JSON of a deal state.',
      bad_json: 'The pasted text is not JSON.', network: 'The service did not answer.',
      not_object: 'A deal state is a JSON object (the body /legal-moves accepts).',
      empty: 'Deal with a seed or paste a deal state to start.',
      review: 'Review', reviewing: () => 'Reviewing every play of the deal (the API\'s default budget)…',
      review_title: 'Review', review_scale: (p) => (p
        ? 'Values: the side\'s raw score less the other side\'s at the end of the deal. Losses are positive, tricks numbered from 0, as the API gives them; ± one standard error of an estimate.'
        : 'Values: the seat\'s own raw score at the end of the deal. Losses are positive, tricks numbered from 0, as the API gives them; ± one standard error of an estimate.'),
      review_budget: (ms, cut) => `seed ${REVIEW_SEED}, budget ${ms} ms${cut ? ' — cut by the clock before every decision was valued' : ''}`,
      legend_none: 'no loss', legend_small: `loss under ${LARGE_LOSS}`, legend_large: `loss ${LARGE_LOSS} or more`,
      legend_exact: 'hindsight: exact, all cards open', legend_estimate: 'fair: estimated from what the seat knew',
      legend_forced: 'forced (one legal play)',
      seat_short: (s) => `S${s}`, trick_short: (n) => `T${n}`,
      review_at: (n, k, s, c) => `play ${n}, trick ${k} (both from 0, as the API numbers them), seat ${s}${c ? ': ' + c : ''}`,
      review_loss: 'Loss', review_exact: 'Exact decisions', review_mistakes: 'Largest mistakes',
      review_accuracy: 'Accuracy', review_verdicts: 'Verdicts',
      verdict_best: 'best', verdict_good: 'good', verdict_inaccuracy: 'inaccuracy', verdict_mistake: 'mistake',
      verdict_blunder: 'blunder',
      of: (a, b) => `${a} of ${b}`, none_lost: 'none',
      played: 'played', best: 'best', value: 'value', exact: 'hindsight (exact)', estimate: 'fair (estimate)',
      forced: 'the only legal play', jump: 'Go to this play',
    },
    zh: {
      title: '拱猪牌桌', load: '载入牌局', seed: '种子', decks: '副数', deal: '发牌',
      paste: '或粘贴牌局状态（/legal-moves 接受的 JSON 请求体）：', load_json: '载入 JSON',
      suggest: '提示', claim: '声称', all_tricks: '拿下所有剩余的圈', no_tricks: '不再拿任何一圈',
      solve: '明牌最优', solve_title: (s, n) => `座位 ${s}，明牌，剩 ${n} 圈：`,
      solve_cut: '时间用尽：上下界', share: '分享', curl: '复制为 curl', footer: '所有结果都来自本服务的公开 API。',
      seat: (s) => `座位 ${s}`, to_play: '出牌', points: '分', taken: '已收',
      trick: (n) => `第 ${n} 圈`, led_by: (s) => `座位 ${s} 领出`, winning: '领先',
      last_trick: (n, s) => `第 ${n} 圈，座位 ${s} 收牌`, moves: (s) => `座位 ${s} 的合法出牌`,
      more_moves: (n) => `……另有 ${n} 种`, position: (c, t) => `第 ${c} / ${t} 手`,
      finished: '本局结束', sheet: '计分表', hearts: '红心', pig: '猪', sheep: '羊',
      transformer: '变压器', raw: '原始分', normalized: '标准分', partnership: '打对家',
      final: '最后得分', notes: '备注', all_hearts: '满红', grand_slam: '满贯',
      ingots: '元宝', transfers: '支付', pays: (a, b, n) => `座位 ${a} 付给座位 ${b} ${n}`,
      multiplier: '房间倍数 1，无台费', rules: '本局规则',
      values: (shown) => `分牌分值（${shown ? `亮牌 ${shown}` : '无亮牌'}）`,
      transformer_rest: (f) => `；得变压器者其余分数 ×${f}`,
      yes: '是', no: '否', rule_decks: '副数', rule_partnership: '打对家',
      rule_opening_card: '首出牌', rule_must_lead_opening_card: '必须先出首出牌',
      rule_first_trick_ban: '首圈禁出', rule_pig_flips_with_all_hearts: '满红时猪变正',
      exposed: '亮', copy: (n) => `第 ${n} 副`,
      colon: '：', whole_body: '整个请求体',
      at_hand: (s, i, c) => `座位 ${s} 的手牌第 ${i + 1} 张${c ? '：' + c : ''}`,
      at_seat_hand: (s) => `座位 ${s} 的手牌`,
      at_exposed: (s, i, c) => `座位 ${s} 的第 ${i + 1} 张亮牌${c ? '：' + c : ''}`,
      at_play: (n, s, c) => `plays[${n}]，即本局第 ${n + 1} 张出牌（第 ${Math.floor(n / 4) + 1} 圈）${s === null ? '' : '，座位 ' + s}${c ? '：' + c : ''}`,
      at_move: (c) => `这手牌${c ? '：' + c : ''}`, at_leader: (v) => `首家：座位 ${v}`,
      at_rule: (r, v) => `规则 ${r} = ${v}`, at_field: (f, v) => `${f}${v === undefined ? '' : ' = ' + v}`,
      rejected: (s) => `被拒绝的出牌${s === null ? '' : '（座位 ' + s + '）'}`,
      suggestion: (s, m) => `座位 ${s} 建议出 ${m}`,
      reason_only_move: '唯一合法的出牌', reason_interchangeable: '几种等价出牌中最小的',
      reason_monte_carlo: (n) => `搜索了 ${n} 次模拟`,
      reason_exact_endgame: (n) => `精确求解残局 ${n} 次`, budget_cut: '因时间用尽而停止',
      play_it: '出这张', holds_true: (s, k) => `声称成立：座位 ${s} ${k}`,
      holds_false: (s, k) => `声称不成立：座位 ${s} ${k}，反例：`,
      holds_null: (s, k) => `无法判定（搜索上限）：座位 ${s} ${k}`,
      claim_score: '若认可声称，各座位原始分', play_refutation: '按反例出牌',
      positions: (n) => `搜索了 ${n} 个局面`, copied: '已复制到剪贴板', select_copy: '请选中后复制',
      bad_fragment: 'URL 片段不是牌局状态的 base64url JSON。',
      bad_json: '粘贴的内容不是 JSON。', network: '服务没有应答。',
      not_object: '牌局状态是一个 JSON 对象（/legal-moves 接受的请求体）。',
      empty: '用种子发牌，或粘贴牌局状态开始。',
      review: '复盘', reviewing: () => '正在复盘本局的每一张出牌（接口默认预算）……',
      review_title: '复盘', review_scale: (p) => (p
        ? '数值：本局结束时本方原始分减去对方原始分。损失为正数，圈数从 0 起，与接口一致；估计值带 ± 一个标准误差。'
        : '数值：本局结束时该座位自己的原始分。损失为正数，圈数从 0 起，与接口一致；估计值带 ± 一个标准误差。'),
      review_budget: (ms, cut) => `种子 ${REVIEW_SEED}，预算 ${ms} 毫秒${cut ? '，时间用尽，并非每一步都已估值' : ''}`,
      legend_none: '无损失', legend_small: `损失小于 ${LARGE_LOSS}`, legend_large: `损失 ${LARGE_LOSS} 或以上`,
      legend_exact: '事后：精确，明牌求解', legend_estimate: '公允：按该座位当时所知估计',
      legend_forced: '被迫（唯一合法出牌）',
      seat_short: (s) => `座${s}`, trick_short: (n) => `第${n}圈`,
      review_at: (n, k, s, c) => `第 ${n} 手，第 ${k} 圈（均从 0 起，与接口一致），座位 ${s}${c ? '：' + c : ''}`,
      review_loss: '损失', review_exact: '精确判断', review_mistakes: '最大失误',
      review_accuracy: '准确度', review_verdicts: '评级',
      verdict_best: '最佳', verdict_good: '好棋', verdict_inaccuracy: '欠佳', verdict_mistake: '失误',
      verdict_blunder: '大错',
      of: (a, b) => `${a} / ${b}`, none_lost: '无',
      played: '实出', best: '最佳', value: '数值', exact: '事后（精确）', estimate: '公允（估计）',
      forced: '唯一合法的出牌', jump: '跳到这一手',
    },
  };

  const T = {
    lang: 'en', state: null, cursor: 0, copies: [], turn: null, view: null, exposures: null,
    score: null, ingots: null, problem: null, answer: null, curl: null, selected: null, token: 0,
    claimSeat: null, review: null, reviewing: false,
  };

  // ---- small helpers ------------------------------------------------------------------
  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
  const t = (key, ...args) => {
    const entry = TEXT[T.lang][key] ?? TEXT.en[key] ?? key;
    return typeof entry === 'function' ? entry(...args) : entry;
  };

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'class') node.className = value;
      else if (name.startsWith('data-') || name === 'type' || name === 'title' || name === 'lang') {
        node.setAttribute(name, value === true ? 'true' : String(value));
      } else node[name] = value;
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const isSeat = (value) => Number.isInteger(value) && value >= 0 && value <= 3;
  const isCardList = (value) => Array.isArray(value) && value.every((c) => typeof c === 'string');
  const cardsText = (cards) => (Array.isArray(cards) ? cards.join(' ') : String(cards));
  const cardList = (value) => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);
  const number = (n) => (n > 0 ? `+${n}` : String(n).replace('-', '−'));
  const cardText = (card) => `${card.slice(1)}${SUIT_SYMBOL[card[0]]}`;
  const sameMove = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

  // Point cards (分牌: hearts, pig, sheep, transformer) first among the taken cards, the others dimmed.
  const isPointCard = (card) => card[0] === 'H' || card in SPECIAL;
  const pointOrder = (card) => (isPointCard(card) ? 0 : 1);

  function sortKey(card) {
    const suit = SUIT_ORDER.indexOf(card[0]);
    const rank = RANK_ORDER.indexOf(card.slice(1));
    return (suit < 0 ? 9 : suit) * 100 + (rank < 0 ? 99 : rank);
  }

  function b64urlEncode(text) {
    let binary = '';
    for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function b64urlDecode(text) {
    let base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    while (base64.length % 4) base64 += '=';
    const binary = atob(base64);
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  }

  // ---- the API ------------------------------------------------------------------------
  async function api(path, body, { main = true, lang = T.lang } = {}) {
    const text = JSON.stringify(body);
    const request = { path, body, text, lang };
    if (main) T.curl = request;
    let response;
    try {
      response = await fetch(path, {
        method: 'POST', body: text,
        headers: { 'Content-Type': 'application/json', 'Accept-Language': LANGUAGE_HEADER[lang] },
      });
    } catch (error) {
      return { ok: false, status: 0, body: { code: 'network', detail: t('network') }, request };
    }
    const answer = await response.json().catch(() => null);
    return { ok: response.ok, status: response.status, body: answer, request };
  }

  function stateAt(cursor) {
    const plays = T.state.plays;
    return Array.isArray(plays) ? { ...T.state, plays: plays.slice(0, cursor) } : { ...T.state };
  }

  const totalPlays = () => (Array.isArray(T.state?.plays) ? T.state.plays.length : 0);

  // ---- loading ------------------------------------------------------------------------
  function copiesOf(hands) {
    const seen = {};
    return SEATS.map((seat) => (isCardList(hands?.[seat])
      ? hands[seat].map((card) => (seen[card] = (seen[card] || 0) + 1)) : []));
  }

  function loadState(state, at) {
    if (state === null || typeof state !== 'object' || Array.isArray(state)) return showClientProblem('not_object');
    T.state = state;
    T.copies = copiesOf(state.hands);
    const total = totalPlays();
    const cursor = Number.parseInt(at, 10);
    T.cursor = Number.isInteger(cursor) && cursor >= 0 && cursor <= total ? cursor : total;
    T.problem = null;
    T.answer = null;
    $('[data-field=paste]').value = JSON.stringify(state);
    return refresh();
  }

  async function deal(seedText, decks) {
    const seed = /^\d{1,16}$/.test(seedText) && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText;
    const body = { seed };
    if (decks === '2') body.rules = { decks: 2 };
    const answer = await api('/deal', body);
    if (!answer.ok) return showProblem(answer, null);
    const dealt = answer.body;
    const state = { rules: dealt.rules, first_deal: dealt.first_deal, hands: dealt.hands, plays: [] };
    if (isSeat(dealt.leader)) state.leader = dealt.leader;
    return loadState(state, null);
  }

  function fromFragment() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (params.get('lang') in TEXT) setLanguage(params.get('lang'), false);
    if (params.has('state')) {
      let state;
      try {
        state = JSON.parse(b64urlDecode(params.get('state')));
      } catch (error) {
        return showClientProblem('bad_fragment');
      }
      return loadState(state, params.get('at'));
    }
    if (params.has('seed')) {
      $('[data-field=seed]').value = params.get('seed');
      $('[data-field=decks]').value = params.get('decks') === '2' ? '2' : '1';
      return deal(params.get('seed'), params.get('decks'));
    }
    return render();
  }

  // The turn at the cursor, with the running state; a rejected state is rewound to
  // its last legal play, where the offending play is shown.
  async function refresh() {
    const token = ++T.token;
    const state = stateAt(T.cursor);
    const turn = await api('/legal-moves', state);
    if (token !== T.token) return;
    if (!turn.ok) return rejected(turn);
    const exposuresBody = { rules: state.rules, hands: state.hands, exposed: state.exposed };
    const [view, exposures] = await Promise.all([
      api('/view', { ...state, seat: 0 }, { main: false }),
      api('/exposures', exposuresBody, { main: false }),
    ]);
    let score = null;
    let ingots = null;
    if (turn.body.finished) {
      score = await api('/score', { rules: state.rules, captured: turn.body.taken, exposed: state.exposed },
        { main: false });
      if (score.ok) ingots = await api('/ingots', { scores: score.body.raw }, { main: false });
    }
    if (token !== T.token) return;
    Object.assign(T, {
      turn: turn.body, view: view.ok ? view.body : null, exposures: exposures.ok ? exposures.body : null,
      score: score?.ok ? score.body : null, ingots: ingots?.ok ? ingots.body : null, selected: null,
    });
    T.curl = turn.request;
    updateFragment();
    render();
  }

  function firstPlay(errors) {
    const found = (errors || []).map((e) => /^\/plays\/(\d+)/.exec(e.pointer || '')).filter(Boolean)
      .map((m) => Number(m[1]));
    return found.length ? Math.min(...found) : null;
  }

  function rejected(answer) {
    const at = answer.status === 422 ? firstPlay(answer.body?.errors) : null;
    T.problem = { answer: answer.body, status: answer.status, request: answer.request, at };
    if (at !== null && at < T.cursor) {
      T.cursor = at;
      return refreshKeeping();
    }
    Object.assign(T, { turn: null, view: null, exposures: null, score: null, ingots: null });
    T.curl = answer.request;
    updateFragment();
    render();
  }

  async function refreshKeeping() {
    const problem = T.problem;
    await refresh();
    if (!T.problem) {
      T.problem = problem;
      render();
    }
    T.curl = problem.request;
  }

  function showProblem(answer, at) {
    T.problem = { answer: answer.body, status: answer.status, request: answer.request, at };
    render();
  }

  function showClientProblem(key) {
    T.problem = { answer: { code: key, title: '', detail: '' }, client: key, status: 0, request: null, at: null };
    render();
  }

  function updateFragment() {
    history.replaceState(null, '', shareLink());
  }

  function shareLink() {
    const params = new URLSearchParams();
    params.set('state', b64urlEncode(JSON.stringify(T.state)));
    // A state rewound to the play it rejects is shared whole, so that it shows the problem again.
    const rewound = T.problem && T.problem.at === T.cursor && T.problem.request?.path === '/legal-moves';
    if (T.cursor < totalPlays() && !rewound) params.set('at', String(T.cursor));
    if (T.lang !== 'en') params.set('lang', T.lang);
    return `${location.origin}${location.pathname}#${params.toString()}`;
  }

  // ---- actions ------------------------------------------------------------------------
  async function play(move) {
    const state = stateAt(T.cursor);
    const answer = await api('/play', { ...state, move, seat: T.turn.seat });
    if (!answer.ok) return showProblem(answer, T.cursor);
    T.state = { ...T.state, plays: answer.body.state.plays };
    T.cursor = answer.body.state.plays.length;
    T.problem = null;
    T.answer = null;
    await refresh();
  }

  function step(to) {
    T.cursor = Math.max(0, Math.min(totalPlays(), to));
    T.problem = null;
    T.answer = null;
    return refresh();
  }

  async function suggest() {
    const answer = await api('/suggest', { ...stateAt(T.cursor), budget_ms: SUGGEST_BUDGET_MS, seed: SUGGEST_SEED });
    if (!answer.ok) return showProblem(answer, T.cursor);
    T.problem = null;
    T.answer = { kind: 'suggestion', body: answer.body };
    render();
  }

  // Every legal move's exact value with every hand open (POST /solve); a move is played by a click.
  async function solve() {
    const answer = await api('/solve', stateAt(T.cursor));
    if (!answer.ok) return showProblem(answer, T.cursor);
    T.problem = null;
    T.answer = { kind: 'solve', body: answer.body };
    render();
  }

  async function claim() {
    const seat = Number($('[data-field=claim-seat]').value);
    const kind = $('[data-field=claim-kind]').value;
    const answer = await api('/claim', { ...stateAt(T.cursor), claim: { seat, kind } });
    if (!answer.ok) return showProblem(answer, T.cursor);
    T.problem = null;
    T.answer = { kind: 'verdict', body: answer.body, at: T.cursor };
    render();
  }

  // The review of the state's plays as they stand: POST /review of the whole deal (finished or
  // not), kept with the plays it reviewed, so that stepping keeps it and a new play drops it.
  async function review() {
    const plays = JSON.stringify(T.state.plays);
    T.reviewing = true;
    render();
    const answer = await api('/review', { ...T.state, seed: REVIEW_SEED });
    T.reviewing = false;
    if (!answer.ok) return showProblem(answer, T.cursor);
    T.problem = null;
    T.review = { body: answer.body, plays };
    return render();
  }

  const currentReview = () => (T.review && T.state && T.review.plays === JSON.stringify(T.state.plays)
    ? T.review.body : null);

  function playRefutation() {
    const plays = stateAt(T.answer.at).plays.concat(T.answer.body.refutation);
    T.state = { ...T.state, plays };
    return step(plays.length);
  }

  async function copyText(text, role) {
    const box = el('textarea', { 'data-role': role, readOnly: true, rows: 3 }, text);
    let note = t('copied');
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      note = t('select_copy');
    }
    T.answer = { kind: 'text', box, note };
    render();
    box.select();
  }

  function curlText() {
    const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
    const r = T.curl;
    return `curl -s ${quote(location.origin + r.path)} -H 'Content-Type: application/json'` +
      ` -H 'Accept-Language: ${LANGUAGE_HEADER[r.lang]}' -d ${quote(r.text)}`;
  }

  async function setLanguage(lang, reload = true) {
    T.lang = lang;
    document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
    if (!reload) return;
    const problem = T.problem;
    if (problem?.request) {
      const again = await api(problem.request.path, problem.request.body, { main: false });
      problem.answer = again.body;
    }
    if (T.state) updateFragment();
    render();
  }

  // Clicking a card plays it when it is a legal play on its own; a card that is part of a
  // legal pair is selected, and the second card (or the same one again) completes the move.
  function clickCard(card, id) {
    const moves = T.turn.moves;
    const find = (cards) => moves.find((m) => sameMove(m, cards));
    if (T.selected) {
      const first = T.selected;
      T.selected = null;
      const move = first.id === id ? find([card]) : find([first.card, card]);
      if (move) return play(move);
      if (first.id === id) return render();
    }
    const single = find([card]);
    const inPair = moves.some((m) => m.length === 2 && m.includes(card));
    if (single && !inPair) return play(single);
    if (!single && !inPair) return undefined;
    T.selected = { card, id };
    return render();
  }

  const ACTIONS = {
    lang: (b) => setLanguage(b.dataset.lang),
    deal: () => deal($('[data-field=seed]').value.trim(), $('[data-field=decks]').value),
    load: () => {
      let state;
      try {
        state = JSON.parse($('[data-field=paste]').value);
      } catch (error) {
        return showClientProblem('bad_json');
      }
      return loadState(state, null);
    },
    start: () => step(0),
    back: () => step(T.cursor - 1),
    forward: () => step(T.cursor + 1),
    end: () => step(totalPlays()),
    suggest,
    claim,
    solve,
    review,
    'review-jump': (b) => step(Number(b.dataset.play)),
    move: (b) => play(JSON.parse(b.dataset.move)),
    'play-suggestion': () => play(T.answer.body.move),
    refutation: playRefutation,
    share: () => copyText(shareLink(), 'share-link'),
    curl: () => T.curl && copyText(curlText(), 'curl-text'),
  };

  // data-busy is true while an action waits for the service (tests wait for it to clear).
  let busy = 0;
  function track(run) {
    busy += 1;
    document.body.setAttribute('data-busy', 'true');
    return Promise.resolve().then(run).catch((error) => {
      // a fault of this page, said on the page (the table may be unusable until the next load)
      $('[data-role=problems]').replaceChildren(el('div', { class: 'problem', 'data-role': 'problem',
        'data-problem-code': 'page_error' }, el('p', { 'data-role': 'problem-detail' }, String(error))));
    }).finally(() => {
      busy -= 1;
      if (!busy) document.body.setAttribute('data-busy', 'false');
    });
  }

  document.addEventListener('click', (event) => {
    const action = event.target.closest('[data-action]');
    const card = event.target.closest('[data-legal=true]');
    const run = action ? () => ACTIONS[action.dataset.action]?.(action)
      : card && T.turn ? () => clickCard(card.dataset.card, card.dataset.id) : null;
    if (!run || (action && action.disabled)) return;
    // one play at a time: a card clicked while the service answers the last one waits for nothing
    if (busy && (!action || action.dataset.action === 'move')) return;
    event.preventDefault();
    track(run);
  });
  window.addEventListener('hashchange', () => track(fromFragment));
  document.addEventListener('change', (event) => {
    if (event.target.matches('[data-field=claim-seat]')) T.claimSeat = event.target.value;
  });

  // ---- where a problem points --------------------------------------------------------
  function walk(body, parts) {
    let value = body;
    for (const part of parts) value = value !== null && typeof value === 'object' ? value[part] : undefined;
    return value;
  }

  // The seat that made play n, when the table shows it (plays before the cursor), or the
  // seat to act at play n when the page stands just before it.
  function seatOfPlay(n) {
    if (T.view && n < T.view.plays.length) return T.view.plays[n].seat;
    if (T.turn && n === T.cursor) return T.turn.seat;
    return null;
  }

  function resolve(pointer, body) {
    const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const value = walk(body, parts);
    const shown = typeof value === 'object' && value !== null ? undefined : value;
    const [field, a, b] = parts;
    const i = Number(a);
    const j = Number(b);
    if (parts.length === 0) return { text: t('whole_body') };
    if (field === 'hands' && isSeat(i)) {
      return b === undefined ? { text: t('at_seat_hand', i), seat: i }
        : { text: t('at_hand', i, j, shown), card: { seat: i, index: j, name: shown } };
    }
    if (field === 'exposed' && isSeat(i) && b !== undefined) {
      return { text: t('at_exposed', i, j, shown), card: { seat: i, name: shown } };
    }
    if (field === 'plays' && a !== undefined) {
      const seat = seatOfPlay(i);
      const cards = cardList(b === undefined ? walk(body, ['plays', a]) : shown);
      return { text: t('at_play', i, seat, b === undefined ? cardsText(cards) : shown), play: { n: i, seat, cards } };
    }
    if (field === 'move') {
      const cards = cardList(a === undefined ? walk(body, ['move']) : shown);
      return { text: t('at_move', a === undefined ? cardsText(cards) : shown), play: { n: T.cursor, seat: T.turn?.seat ?? null, cards } };
    }
    if (field === 'leader') return { text: t('at_leader', shown), seat: isSeat(value) ? value : null };
    if (field === 'rules' && a !== undefined) return { text: t('at_rule', a, shown), rule: a };
    if (field === 'claim' && a === 'seat' && isSeat(value)) {
      return { text: t('at_field', pointer, shown), seat: value, control: 'claim-seat' };
    }
    return { text: t('at_field', pointer, shown), control: CONTROLS[pointer] };
  }

  function problemTargets() {
    const problem = T.problem;
    if (!problem?.answer?.errors || !problem.request) return [];
    return problem.answer.errors.map((error) => ({ error, where: resolve(error.pointer, problem.request.body) }));
  }

  // ---- drawing ------------------------------------------------------------------------
  function cardView(entry, { small = false, plain = false, button = false, exposed = false, extra = {} } = {}) {
    const name = String(entry.card);
    const suit = SUIT_SYMBOL[name[0]] ? name[0] : 'X';
    const rank = suit === 'X' ? name : name.slice(1);
    const two = T.state?.rules?.decks === 2;
    return el(button ? 'button' : 'span', {
      class: `card suit-${suit}${small ? ' small' : ''}${plain ? ' plain' : ''}${entry.copy === 2 ? ' copy-2' : ''}`,
      type: button ? 'button' : undefined,
      title: [name, SPECIAL[name] && t(SPECIAL[name]), two && entry.copy ? t('copy', entry.copy) : null,
        exposed && t('exposed')].filter(Boolean).join(' · '),
      'data-card': name, 'data-copy': entry.copy || undefined,
      'data-id': entry.copy ? `${name}-${entry.copy}` : undefined,
      'data-seat': entry.seat, 'data-index': entry.index, 'data-exposed': exposed || undefined, ...extra,
    }, el('span', { class: 'rank' }, rank), el('span', { class: 'suit' }, SUIT_SYMBOL[suit] || '?'),
    exposed ? el('span', { class: 'badge-exposed' }, '亮') : null,
    two && entry.copy ? el('span', { class: 'badge-copy' }, entry.copy === 2 ? 'b' : 'a') : null);
  }

  // The hands at the cursor: the dealt hands less the cards each seat played (the plays'
  // seats come from /view), each card keeping its place in the hand as dealt and its copy.
  function handsAtCursor() {
    const hands = SEATS.map((seat) => (isCardList(T.state.hands?.[seat])
      ? T.state.hands[seat].map((card, index) => ({ card, index, seat, copy: T.copies[seat][index] })) : []));
    const played = (T.view?.plays || []).map((p) => ({
      seat: p.seat,
      entries: p.cards.map((card) => {
        const hand = hands[p.seat];
        let at = -1;
        for (let k = hand.length - 1; k >= 0 && at < 0; k -= 1) if (hand[k].card === card) at = k;
        return at >= 0 ? hand.splice(at, 1)[0] : { card, seat: p.seat };
      }),
    }));
    return { hands, played };
  }

  function exposedCounts(seat) {
    const counts = {};
    const list = T.turn?.exposed?.[seat] ?? T.state?.exposed?.[seat] ?? [];
    if (Array.isArray(list)) for (const card of list) counts[card] = (counts[card] || 0) + 1;
    return counts;
  }

  function drawSeat(section, seat, hands, targets) {
    section.replaceChildren();
    const turn = T.turn;
    const toAct = turn && !turn.finished && turn.seat === seat;
    section.toggleAttribute('data-to-act', !!toAct);
    const flagged = targets.some((x) => x.where.seat === seat);
    if (flagged) section.setAttribute('data-problem', 'true'); else section.removeAttribute('data-problem');
    const legal = new Set(toAct ? turn.moves.flat() : []);
    const suggested = T.answer?.kind === 'suggestion' && T.answer.body.seat === seat ? [...T.answer.body.move] : [];
    const decision = currentReview()?.decisions.find((d) => d.play === T.cursor && d.seat === seat);
    const reviewBest = new Set(decision ? decision.best.flat() : []);
    const counts = exposedCounts(seat);
    const header = el('header', {},
      el('span', { class: 'seat-name' }, t('seat', seat)),
      toAct ? el('span', { class: 'turn', 'data-role': 'turn' }, t('to_play')) : null,
      turn ? el('span', { class: 'points', 'data-role': 'points', 'data-points': turn.points[seat] },
        `${number(turn.points[seat])} ${t('points')}`) : null);
    const entries = [...hands[seat]].sort((x, y) => sortKey(x.card) - sortKey(y.card) || (x.copy || 0) - (y.copy || 0));
    const hand = el('div', { class: 'hand', 'data-role': 'hand', 'data-seat': seat });
    for (const entry of entries) {
      const exposed = (counts[entry.card] || 0) > 0;
      if (exposed) counts[entry.card] -= 1;
      const problem = targets.find((x) => (x.where.card && x.where.card.seat === seat
        && (x.where.card.index === undefined || Number.isNaN(x.where.card.index)
          ? x.where.card.name === entry.card : x.where.card.index === entry.index))
        || (x.where.play && x.where.play.seat === seat && x.where.play.n === T.cursor
          && x.where.play.cards?.includes(entry.card)));
      const suggestedHere = suggested.indexOf(entry.card);
      if (suggestedHere >= 0) suggested.splice(suggestedHere, 1);
      const id = entry.copy ? `${entry.card}-${entry.copy}` : undefined;
      hand.append(cardView(entry, {
        button: true, exposed, extra: {
          'data-legal': toAct ? String(legal.has(entry.card)) : undefined,
          'data-problem': problem ? problem.error.code : undefined,
          'data-suggested': suggestedHere >= 0 || undefined,
          'data-selected': T.selected?.id === id || undefined,
          'data-review-best': reviewBest.has(entry.card) || undefined,
        },
      }));
    }
    section.append(header, hand);
    if (turn) {
      const taken = el('div', { class: 'taken', 'data-role': 'taken', 'data-seat': seat },
        el('span', { class: 'label' }, `${t('taken')} (${turn.taken[seat].length})`),
        [...turn.taken[seat]].sort((x, y) => pointOrder(x) - pointOrder(y) || sortKey(x) - sortKey(y))
          .map((card) => cardView({ card }, { small: true, plain: !isPointCard(card) })));
      section.append(taken);
    }
  }

  function trickPlays(played, trickNumber) {
    return played.slice(trickNumber * 4, trickNumber * 4 + 4);
  }

  function drawCentre(section, played, targets) {
    section.replaceChildren();
    const turn = T.turn;
    if (!T.state) {
      section.append(el('p', { class: 'hint' }, t('empty')));
      return;
    }
    if (turn) {
      const current = trickPlays(played, turn.trick_number);
      const showLast = current.length === 0 && turn.trick_number > 0;
      const shown = showLast ? trickPlays(played, turn.trick_number - 1) : current;
      // tricks numbered from 0, as the API (and the review) number them
      const title = showLast ? t('last_trick', turn.trick_number - 1, turn.trick_leader)
        : `${t('trick', turn.trick_number)} · ${t('led_by', turn.trick_leader)}`;
      const trick = el('div', { class: `trick${showLast ? ' last' : ''}`, 'data-role': 'trick' });
      for (const p of shown) {
        const winning = !showLast && turn.winning === p.seat;
        trick.append(el('div', { class: `play pos-${p.seat}`, 'data-seat': p.seat, 'data-winning': winning || undefined },
          el('span', { class: 'who' }, t('seat', p.seat), winning ? ` · ${t('winning')}` : ''),
          el('span', { class: 'cards' }, p.entries.map((e) => cardView(e)))));
      }
      section.append(el('h2', {}, title), trick);
    }
    const rejectedPlay = targets.map((x) => x.where.play).find((p) => p && p.n === T.cursor);
    if (rejectedPlay) {
      section.append(el('div', { class: 'rejected', 'data-role': 'rejected' },
        el('span', {}, t('rejected', rejectedPlay.seat)),
        rejectedPlay.cards.map((card) => cardView({ card }, {
          extra: { 'data-problem': T.problem.answer.code },
        }))));
    }
    if (turn && turn.finished) section.append(el('p', { class: 'over', 'data-role': 'finished' }, t('finished')));
    if (turn && !turn.finished) {
      const chips = el('div', { class: 'moves', 'data-role': 'moves', 'data-seat': turn.seat },
        el('span', { class: 'label' }, t('moves', turn.seat)));
      for (const move of turn.moves.slice(0, MAX_MOVE_CHIPS)) {
        chips.append(el('button', { type: 'button', class: 'chip', 'data-action': 'move', 'data-move': JSON.stringify(move) },
          move.map(cardText).join(' ')));
      }
      if (turn.moves.length > MAX_MOVE_CHIPS) chips.append(el('span', {}, t('more_moves', turn.moves.length - MAX_MOVE_CHIPS)));
      section.append(chips);
    }
  }

  function drawProblems(section, targets) {
    section.replaceChildren();
    const problem = T.problem;
    if (!problem) return;
    const answer = problem.answer || { code: 'unknown', detail: String(problem.status) };
    const box = el('div', { class: 'problem', 'data-role': 'problem', 'data-problem-code': answer.code },
      el('strong', { 'data-role': 'problem-title' }, answer.title ? `${answer.status} ${answer.title}` : answer.code),
      el('p', { 'data-role': 'problem-detail' }, problem.client ? t(problem.client) : answer.detail),
      el('code', {}, answer.code));
    if (targets.length) {
      const list = el('ul', {});
      for (const { error, where } of targets) {
        list.append(el('li', { 'data-pointer': error.pointer, 'data-code': error.code },
          el('code', {}, error.pointer || '""'), ` → ${where.text}${t('colon')}`,
          el('span', { 'data-role': 'error-detail' }, error.detail)));
      }
      box.append(list);
    }
    section.append(box);
  }

  function drawAnswers(section) {
    section.replaceChildren();
    const answer = T.answer;
    if (!answer) return;
    if (answer.kind === 'text') {
      section.append(el('div', { class: 'answer' }, answer.box, el('span', { class: 'note' }, answer.note)));
      return;
    }
    if (answer.kind === 'suggestion') {
      const s = answer.body;
      const reason = s.reason === 'monte_carlo' || s.reason === 'exact_endgame'
        ? t(`reason_${s.reason}`, s.samples) : t(`reason_${s.reason}`);
      section.append(el('div', { class: 'answer', 'data-role': 'suggestion', 'data-move': s.move.join(' ') },
        el('strong', {}, t('suggestion', s.seat, s.move.join(' '))), ` — ${reason}`,
        s.budget_cut ? ` (${t('budget_cut')})` : '',
        el('button', { type: 'button', 'data-action': 'play-suggestion' }, t('play_it'))));
      return;
    }
    if (answer.kind === 'solve') return drawSolve(section, answer.body);
    const v = answer.body;
    const kind = t(v.claim.kind);
    const box = el('div', { class: 'answer', 'data-role': 'verdict', 'data-holds': String(v.holds) },
      el('strong', {}, t(`holds_${v.holds}`, v.claim.seat, kind)), ` (${t('positions', v.positions)})`);
    if (v.refutation) {
      box.append(el('div', { class: 'refutation' }, v.refutation.map((p, k) => el('span', {
        class: 'ref-play', title: t('at_play', answer.at + k, null, ''),
      }, p.map((card) => cardView({ card }, { small: true }))))),
      el('button', { type: 'button', 'data-action': 'refutation' }, t('play_refutation')));
    }
    if (v.score) box.append(el('p', {}, `${t('claim_score')}: ${v.score.raw.map(number).join(', ')}`));
    section.append(box);
  }

  function drawSolve(section, s) {
    const best = new Set(s.best.map((move) => move.join(' ')));
    section.append(el('div', { class: 'answer', 'data-role': 'solve', 'data-exact': String(s.exact) },
      el('strong', {}, t('solve_title', s.seat, s.tricks_left)), s.exact ? '' : ` (${t('solve_cut')})`,
      ...s.values.map((v) => el('button', {
        type: 'button', 'data-action': 'move', 'data-move': JSON.stringify(v.move),
        'data-best': String(best.has(v.move.join(' '))), class: best.has(v.move.join(' ')) ? 'solve-best' : '',
      }, moveView(v.move), ` ${v.exact ? v.value : `${v.lower}…${v.upper}`}`))));
  }

  // ---- the review: the decision at the cursor, a summary a seat, every play by trick ----
  const lossLevel = (loss) => (loss <= 0 ? 'none' : loss < LARGE_LOSS ? 'small' : 'large');
  const lossText = (loss, se) => (se ? `${loss} ±${se}` : String(loss));
  const VERDICTS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
  const moveView = (move) => el('span', { class: 'move' },
    move.map((card) => el('span', { class: `mc suit-${card[0]}` }, cardText(card))));
  const bestView = (best) => el('span', { class: 'best-moves' },
    best.slice(0, MAX_BEST_SHOWN).flatMap((move, k) => [k ? ' / ' : '', moveView(move)]),
    best.length > MAX_BEST_SHOWN ? ' …' : '');

  function drawReview(section) {
    section.replaceChildren();
    if (T.reviewing) {
      section.append(el('p', { class: 'waiting', 'data-role': 'review-waiting' }, t('reviewing')));
      return;
    }
    const r = currentReview();
    if (!r) return;
    const byPlay = new Map(r.decisions.map((d) => [d.play, d]));
    section.append(...[
      el('h2', {}, t('review_title'), el('span', {
        class: 'note', 'data-role': 'review-budget', 'data-budget-ms': r.budget_ms, 'data-budget-cut': String(r.budget_cut),
      }, ` · ${t('review_budget', r.budget_ms, r.budget_cut)}`)),
      el('p', { class: 'note' }, t('review_scale', r.rules.partnership)),
      reviewDecision(byPlay.get(T.cursor)), reviewSummary(r, byPlay), reviewLegend(), reviewTimeline(r),
    ].filter(Boolean));
  }

  // The decision the table stands at: what was played, its value and loss, and every legal move's value.
  function reviewDecision(d) {
    if (!d) return null;
    const values = d.values ? el('div', { class: 'values' }, d.values.map((v) => el('span', {
      class: `value${d.best.some((m) => sameMove(m, v.move)) ? ' best' : ''}${sameMove(v.move, d.played) ? ' played' : ''}`,
      'data-role': 'review-value', 'data-move': v.move.join(' '), 'data-value': v.value,
    }, moveView(v.move), ` ${number(v.value)}`))) : el('span', {}, ` · ${t('forced')}`);
    return el('div', { class: 'decision', 'data-role': 'review-decision', 'data-play': d.play },
      el('strong', {}, t('review_at', d.play, d.trick, d.seat, '')), ` · ${t('played')} `, moveView(d.played),
      ` · ${t('value')} ${lossText(number(d.value), d.se)} · ${t('review_loss')} `,
      el('span', { class: `loss loss-${lossLevel(d.loss)}`, 'data-role': 'review-loss' }, lossText(d.loss, d.loss_se)),
      ' · ', el('span', { class: `verdict verdict-${d.verdict}`, 'data-role': 'review-verdict', 'data-verdict': d.verdict },
        t(`verdict_${d.verdict}`)),
      ` · ${t(d.exact ? 'exact' : 'estimate')}`, hindsightView(d.hindsight), values);
  }

  // The other lens of a play judged fair, where the exact search reached it: its loss and verdict, all cards open.
  function hindsightView(h) {
    if (!h) return null;
    return el('span', { class: 'hindsight', 'data-role': 'review-hindsight', 'data-loss': h.loss, 'data-verdict': h.verdict },
      ` · ${t('exact')}: ${t('review_loss')} ${lossText(h.loss)} ${t(`verdict_${h.verdict}`)}`);
  }

  function jumpButton(d, role, loss) {
    return el('button', {
      type: 'button', class: `jump loss-${lossLevel(loss)}`, 'data-action': 'review-jump', 'data-role': role,
      'data-play': d.play, 'data-loss': loss, title: t('jump'),
    }, `${t('trick_short', d.trick)} `, moveView(d.played), ` ${lossText(loss)}`);
  }

  function reviewSummary(r, byPlay) {
    const exact = (s) => s.decisions.filter((n) => byPlay.get(n)?.exact).length;
    const row = (field, label, cell) => el('tr', { 'data-field': field }, el('th', {}, t(label)), r.seats.map((s) => {
      const { attrs, shown } = cell(s);
      return el('td', { 'data-seat': s.seat, 'data-field': field, ...attrs }, shown);
    }));
    return el('table', { class: 'review-summary', 'data-role': 'review-summary' },
      el('thead', {}, el('tr', {}, el('th', {}), r.seats.map((s) => el('th', { 'data-seat': s.seat }, t('seat', s.seat))))),
      el('tbody', {},
        row('loss', 'review_loss', (s) => ({ attrs: { 'data-value': s.loss }, shown: lossText(s.loss, s.loss_se) })),
        row('accuracy', 'review_accuracy', (s) => ({
          attrs: { 'data-value': s.accuracy ?? '' }, shown: s.accuracy === null ? '–' : String(s.accuracy),
        })),
        row('verdicts', 'review_verdicts', (s) => ({
          attrs: { 'data-value': JSON.stringify(s.verdicts) },
          shown: VERDICTS.filter((v) => s.verdicts[v]).map((v) => `${s.verdicts[v]} ${t(`verdict_${v}`)}`).join(', '),
        })),
        row('exact', 'review_exact', (s) => ({
          attrs: { 'data-value': exact(s), 'data-of': s.decisions.length }, shown: t('of', exact(s), s.decisions.length),
        })),
        row('mistakes', 'review_mistakes', (s) => ({
          attrs: {}, shown: s.mistakes.length
            ? s.mistakes.map((m) => jumpButton(byPlay.get(m.play), 'review-mistake', m.loss)) : t('none_lost'),
        }))));
  }

  function reviewLegend() {
    return el('div', { class: 'legend', 'data-role': 'review-legend' },
      ['none', 'small', 'large'].map((level) => el('span', { class: `swatch loss-${level} exact` }, t(`legend_${level}`))),
      ['exact', 'estimate'].map((kind) => el('span', { class: `swatch ${kind}` }, t(`legend_${kind}`))),
      el('span', { class: 'swatch forced exact' }, t('legend_forced')));
  }

  function reviewTimeline(r) {
    const tricks = [];
    for (const d of r.decisions) (tricks[d.trick] ||= []).push(d);
    return el('div', { class: 'timeline', 'data-role': 'review-timeline' }, tricks.map((plays, k) => el('div', {
      class: 'review-trick', 'data-role': 'review-trick', 'data-trick': k,
    }, el('span', { class: 'trick-no', title: t('trick', k) }, String(k)),
    el('div', { class: 'trick-plays' }, plays.map(reviewPlay)))));
  }

  function reviewPlay(d) {
    const forced = !d.values;
    const differs = !d.best.some((m) => sameMove(m, d.played));
    return el('button', {
      type: 'button', class: `review-play loss-${lossLevel(d.loss)} ${d.exact ? 'exact' : 'estimate'}${forced ? ' forced' : ''}`,
      'data-action': 'review-jump', 'data-role': 'review-play', 'data-play': d.play, 'data-trick': d.trick,
      'data-seat': d.seat, 'data-played': d.played.join(' '), 'data-loss': d.loss, 'data-level': lossLevel(d.loss),
      'data-verdict': d.verdict, 'data-lens': d.lens, 'data-hindsight-verdict': d.hindsight?.verdict,
      'data-exact': String(d.exact), 'data-forced': forced || undefined, 'data-best': JSON.stringify(d.best),
      'data-current': d.play === T.cursor || undefined,
      title: `${t('review_at', d.play, d.trick, d.seat, d.played.join(' '))} · ${t(`verdict_${d.verdict}`)} · ${t(d.exact ? 'exact' : 'estimate')}`,
    }, el('span', { class: 'who' }, t('seat_short', d.seat)), moveView(d.played),
    d.loss > 0 ? el('span', { class: 'loss' }, lossText(d.loss)) : null,
    d.values ? el('span', { class: `verdict verdict-${d.verdict}` }, t(`verdict_${d.verdict}`)) : null,
    differs ? el('span', { class: 'best', 'data-role': 'review-best' }, `${t('best')} `, bestView(d.best)) : null);
  }

  // The score sheet: one column a seat (it fits a phone), one row a figure.
  function drawSheet(section) {
    section.replaceChildren();
    const score = T.score;
    if (!score) return;
    const rows = [
      ['hearts', (seat) => score.seats[seat].hearts],
      ['pig', (seat) => score.seats[seat].pig],
      ['sheep', (seat) => score.seats[seat].sheep],
      ['transformer_factor', (seat) => score.seats[seat].transformer_factor, (v) => (v === 1 ? '–' : `×${v}`), 'transformer'],
      ['raw', (seat) => score.raw[seat]],
      ['normalized', (seat) => score.normalized[seat], number, score.rules.partnership ? 'partnership' : 'normalized'],
      ['final', (seat) => score.final[seat]],
    ];
    if (T.ingots) rows.push(['ingots', (seat) => T.ingots.net[seat]]);
    const table = el('table', { 'data-role': 'score-sheet' },
      el('thead', {}, el('tr', {}, el('th', {}), SEATS.map((seat) => el('th', { 'data-seat': seat }, t('seat', seat))))));
    const body = el('tbody', {});
    for (const [field, get, show = number, label = field] of rows) {
      body.append(el('tr', { 'data-field': field }, el('th', {}, t(label)), SEATS.map((seat) => el('td', {
        'data-seat': seat, 'data-field': field, 'data-value': get(seat),
      }, show(get(seat))))));
    }
    body.append(el('tr', { 'data-field': 'notes' }, el('th', {}, t('notes')), SEATS.map((seat) => el('td', {
      'data-seat': seat, 'data-field': 'notes',
    }, [score.seats[seat].all_hearts && t('all_hearts'), score.seats[seat].grand_slam && t('grand_slam')]
      .filter(Boolean).join(', ')))));
    table.append(body);
    section.append(el('h2', {}, t('sheet')), table);
    if (T.ingots) {
      section.append(el('p', { class: 'transfers', 'data-role': 'transfers' }, `${t('ingots')} — ${t('multiplier')}. `,
        `${t('transfers')}: `, T.ingots.transfers.map((x) => t('pays', x.from, x.to, x.amount)).join('; ')));
    }
  }

  function drawRules(section, targets) {
    section.replaceChildren();
    const rules = T.exposures?.rules ?? T.state?.rules;
    if (!rules || typeof rules !== 'object') return;
    const flagged = new Set(targets.map((x) => x.where.rule).filter(Boolean));
    const value = (v) => (v === true ? t('yes') : v === false ? t('no') : String(v));
    const list = el('dl', {});
    for (const [name, v] of Object.entries(rules)) {
      list.append(el('div', { 'data-rule': name, 'data-problem': flagged.has(name) || undefined },
        el('dt', {}, t(`rule_${name}`)), el('dd', {}, value(v))));
    }
    section.append(el('h2', {}, t('rules')), list);
    if (T.exposures) {
      // what the exposures in force (the automatic one included) make each exposable card score alone, and the
      // transformer's factor: "none exposed" when they are the plain values
      const { values, exposed, transformer_factor: factor } = T.exposures;
      const shown = Object.keys(values).flatMap((card) => exposed.flat().filter((c) => c === card)).join(' ');
      const list = Object.entries(values).map(([card, v]) => `${card} ${number(v)}`).join(' · ');
      section.append(el('p', { 'data-role': 'exposure-values' },
        `${t('values', shown)}${t('colon')}${list}${t('transformer_rest', factor)}`));
    }
  }

  function drawControls() {
    const total = totalPlays();
    const loaded = !!T.state;
    const position = $('[data-role=position]');
    position.textContent = loaded ? t('position', T.cursor, total) : '';
    position.setAttribute('data-cursor', String(T.cursor));
    position.setAttribute('data-total', String(total));
    $('[data-action=start]').disabled = !loaded || T.cursor === 0;
    $('[data-action=back]').disabled = !loaded || T.cursor === 0;
    $('[data-action=forward]').disabled = !loaded || T.cursor >= total;
    $('[data-action=end]').disabled = !loaded || T.cursor >= total;
    const playing = !!T.turn && !T.turn.finished;
    $('[data-action=suggest]').disabled = !playing;
    $('[data-action=claim]').disabled = !playing;
    $('[data-action=solve]').disabled = !playing;
    $('[data-action=review]').disabled = !loaded || total === 0 || T.reviewing;
    $('[data-action=share]').disabled = !loaded;
    $('[data-action=curl]').disabled = !T.curl;
    // the claimant is the seat to act until one is chosen
    const select = $('[data-field=claim-seat]');
    select.replaceChildren(...SEATS.map((s) => el('option', { value: String(s) }, t('seat', s))));
    select.value = T.claimSeat ?? String(T.turn?.seat ?? 0);
    for (const b of $$('[data-action=lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === T.lang));
  }

  function markControls(targets) {
    const flagged = new Set(targets.map((x) => x.where.control).filter(Boolean));
    for (const control of $$('[data-field]:not(td)')) {
      if (flagged.has(control.dataset.field)) control.setAttribute('data-problem', 'true');
      else control.removeAttribute('data-problem');
    }
    if (flagged.has('seed') || flagged.has('decks')) $('[data-role=load]').setAttribute('open', '');
  }

  function render() {
    for (const node of $$('[data-i18n]')) node.textContent = t(node.dataset.i18n);
    document.title = t('title');
    const targets = problemTargets();
    const { hands, played } = T.state ? handsAtCursor() : { hands: [[], [], [], []], played: [] };
    for (const seat of SEATS) drawSeat($(`.seat[data-seat="${seat}"]`), seat, hands, targets);
    drawCentre($('[data-role=centre]'), played, targets);
    drawProblems($('[data-role=problems]'), targets);
    drawAnswers($('[data-role=answers]'));
    drawReview($('[data-role=review]'));
    drawSheet($('[data-role=sheet]'));
    drawRules($('[data-role=rules]'), targets);
    drawControls();
    markControls(targets);
  }

  function start() {
    const wanted = (navigator.languages || [navigator.language || 'en']).find((l) => /^(zh|en)\b/i.test(l)) || 'en';
    setLanguage(wanted.toLowerCase().startsWith('zh') ? 'zh' : 'en', false);
    // ?lang= in the address (a link typed or sent as a query) as #lang= does; the fragment's, if any, wins
    const asked = new URLSearchParams(location.search).get('lang');
    if (asked in TEXT) setLanguage(asked, false);
    if (location.hash.length > 1) $('[data-role=load]').removeAttribute('open');
    track(fromFragment);
  }

  start();
})();
