// Module worker: the page's one lab and everything computed with it (web/pipeline/lab-serve.js),
// so the page's main thread only lays out and paints. The page's side is web/pipeline/lab-client.js,
// which lists the messages.
import { serveLab } from './lab-serve.js';

serveLab(self);
