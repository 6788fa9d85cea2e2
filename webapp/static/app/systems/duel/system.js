// This system's entry in the page's registry (../index.js): its name, the roller's first
// form and command and the rolls it offers, its dice (./dice.js: the roller's entries, result
// cards and forms of its own rolls), its screens module and stylesheet.
import { t } from "../../i18n.js";
import dice from "./dice.js";

export default {
  code: "duel",
  name: () => t("Duel"),
  roll: "duel",
  rolls: ["duel", "roll"],
  dice,
  module: new URL("./index.js", import.meta.url).href,
  css: new URL("./duel.css", import.meta.url).href,
};
