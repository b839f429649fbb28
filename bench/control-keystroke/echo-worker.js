// Sends every message straight back: the trip's floor, with no compute in it.
addEventListener('message', (event) => postMessage(event.data));
