// Declarations for `posenc-lab/element`, the classic-script build (dist/posenc-lab.js): it
// defines <posenc-lab> and exports nothing, so importing it brings only the global types
// (HTMLElementTagNameMap). The class itself: `import type { PosencLabElement } from
// 'posenc-lab/element.mjs'`.
import './element.js';

export {};
