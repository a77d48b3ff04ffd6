// A minimal stand-in for MiniWoB++'s core.js with the same globals, for the harness's own tests.
var core = {};
var WOB_REWARD_GLOBAL = 0;
var WOB_RAW_REWARD_GLOBAL = 0;
var WOB_REWARD_REASON = null;
var WOB_DONE_GLOBAL = false;
core.EPISODE_MAX_TIME = 10000;
core.EP_TIMER = null;

// Seeded Math.random, like seedrandom.js: the same seed gives the same episode.
Math.seedrandom = (seed) => {
  var h = 2166136261;
  for (var i = 0; i < String(seed).length; i++) h = Math.imul(h ^ String(seed).charCodeAt(i), 16777619);
  Math.random = () => {
    h = (h + 0x6d2b79f5) | 0;
    var t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
core.sample = (list) => list[Math.floor(Math.random() * list.length)];
core.startEpisode = () => {
  var cover = document.getElementById('sync-task-cover');
  if (!cover) {
    cover = document.createElement('div');
    cover.id = 'sync-task-cover';
    cover.textContent = 'START';
    cover.onclick = core.startEpisodeReal;
    document.body.appendChild(cover);
  }
  cover.style.display = 'block';
};
core.startEpisodeReal = () => {
  genProblem();
  WOB_DONE_GLOBAL = false;
  WOB_RAW_REWARD_GLOBAL = 0;
  var cover = document.getElementById('sync-task-cover');
  if (cover) cover.style.display = 'none';
  if (core.EP_TIMER !== null) clearTimeout(core.EP_TIMER);
  core.EP_TIMER = setTimeout(() => {
    core.endEpisode(-1, false, 'timed out');
  }, core.EPISODE_MAX_TIME);
};
core.endEpisode = (reward, timeProportional, reason) => {
  if (core.EP_TIMER === null) return;
  clearTimeout(core.EP_TIMER);
  core.EP_TIMER = null;
  WOB_RAW_REWARD_GLOBAL = reward;
  WOB_REWARD_GLOBAL = reward;
  WOB_REWARD_REASON = reason;
  WOB_DONE_GLOBAL = true;
  core.startEpisode();
};
core.getUtterance = () => document.getElementById('query').textContent.replace(/\s+/g, ' ').trim();
