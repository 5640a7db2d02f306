// The score pad's entry point: the language, the choice of game, then each game's page.

import * as dfm from './dfm.js';
import * as ff from './ff.js';
import * as offline from './offline.js';
import * as play from './play.js';
import { onLanguageChange, setLanguage, t, translate } from './i18n.js';
import { initBanner, selectTab, tabKeys } from './ui.js';

const GAME = 'referee.pad.game';

function showLanguageToggle() {
  const toggle = document.getElementById('language');
  toggle.textContent = t('language.other');
  toggle.lang = t('language.other_code');
}

function chooseGame(tabs, chosen) {
  selectTab(tabs, chosen);
  for (const tab of tabs) {
    document.getElementById(tab.getAttribute('aria-controls')).hidden = tab !== chosen;
  }
  localStorage.setItem(GAME, chosen.dataset.game);
}

translate();
showLanguageToggle();
onLanguageChange(showLanguageToggle);
document.getElementById('language').addEventListener('click', () => {
  setLanguage(t('language.other_code'));
});
initBanner();

const games = document.querySelector('.games');
const tabs = [...games.querySelectorAll('[role="tab"]')];
tabKeys(games);
for (const tab of tabs) tab.addEventListener('click', () => chooseGame(tabs, tab));
const wanted = window.location.hash.slice(1) || localStorage.getItem(GAME);
chooseGame(tabs, tabs.find((tab) => tab.dataset.game === wanted) ?? tabs[0]);

dfm.init();
ff.init();
play.init();
offline.init();
