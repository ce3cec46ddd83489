// What makes the board feel like a game: short synthesized sounds and vibration (with a switch
// kept in this browser), and whether motion is wanted at all. Players who ask their system for
// less motion (prefers-reduced-motion) get none: pieces jump, dice show their faces at once,
// and sound and vibration start switched off.
// Nothing here ever waits for the server, and the server's answers never wait for it.

const SOUND_KEY = "boardpass:sound";

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Sound and vibration: on unless switched off here (or, by default, under reduced motion).
export function soundOn() {
  const chosen = localStorage.getItem(SOUND_KEY);
  return chosen === null ? !reducedMotion() : chosen === "on";
}

// The page's switch (a checkbox, #sound): shows the setting and keeps the player's choice.
export function soundSwitch(box) {
  if (!box) return;
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
    if (box.checked) play("hop");  // what it sounds like, and the audio unlocked by a tap
  });
}

let audio = null;  // made on first use: a browser lets sound start only after a tap

// Each sound as notes: [start s, frequency Hz, end frequency, length s, wave, volume]; "noise"
// is a burst of static (the dice rattling).
const SOUNDS = {
  roll: [[0, "noise", 0, 0.05, 0, 0.25], [0.07, "noise", 0, 0.05, 0, 0.2],
    [0.15, "noise", 0, 0.06, 0, 0.18], [0.25, "noise", 0, 0.08, 0, 0.15]],
  dice: [[0, "noise", 0, 0.07, 0, 0.25]],  // the dice landing
  hop: [[0, 620, 700, 0.04, "sine", 0.12]],
  capture: [[0, 330, 110, 0.22, "square", 0.12], [0.02, "noise", 0, 0.12, 0, 0.2]],
  home: [[0, 660, 660, 0.1, "triangle", 0.18], [0.1, 880, 880, 0.1, "triangle", 0.18],
    [0.2, 1320, 1320, 0.18, "triangle", 0.18]],
};
const BUZZ = { capture: [70], home: [30, 50, 30], dice: [15] };  // vibration, in ms

// Plays a sound and its vibration, when sound is on. Never throws: a page without audio plays on.
export function play(name) {
  // Before the first tap on the page (a replay on arrival, a room's poll) a browser allows
  // neither: nothing is tried.
  const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (!soundOn() || !tapped) return;
  if (BUZZ[name] && navigator.vibrate) navigator.vibrate(BUZZ[name]);
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime + 0.01;
    for (const [at, freq, to, length, wave, volume] of SOUNDS[name]) {
      const gain = audio.createGain();
      gain.gain.setValueAtTime(volume, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + at + length);
      gain.connect(audio.destination);
      let source;
      if (freq === "noise") {
        const buffer = audio.createBuffer(1, Math.ceil(audio.sampleRate * length),
          audio.sampleRate);
        const data = buffer.getChannelData(0);
        for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
        source = audio.createBufferSource();
        source.buffer = buffer;
      } else {
        source = audio.createOscillator();
        source.type = wave;
        source.frequency.setValueAtTime(freq, t0 + at);
        source.frequency.exponentialRampToValueAtTime(to, t0 + at + length);
      }
      source.connect(gain);
      source.start(t0 + at);
      source.stop(t0 + at + length);
    }
  } catch {
    // No sound on this device: the game goes on.
  }
}
