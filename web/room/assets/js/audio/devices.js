// Microphone and speaker pickers: two <select>s filled from enumerateDevices() (labels are only
// known once the page may use the microphone), kept current when devices come and go. A picker
// stays hidden when there is only one device, or when its handler is null (e.g. the browser
// cannot route Web Audio to a chosen speaker).

function optionsFor(select, devices, fallbackName, selected) {
  const previous = selected ?? select.value;
  select.replaceChildren();
  devices.forEach((device, index) => {
    const option = document.createElement('option');
    option.value = device.deviceId;
    option.textContent = device.label || `${fallbackName} ${index + 1}`;
    select.append(option);
  });
  if (devices.some((device) => device.deviceId === previous)) select.value = previous;
}

export class DevicePicker {
  /**
   * @param {object} parts
   * @param {HTMLSelectElement} parts.microphone
   * @param {HTMLElement} parts.microphoneField  hidden when there is nothing to choose
   * @param {HTMLSelectElement} parts.speaker
   * @param {HTMLElement} parts.speakerField
   * @param {object} handlers  a handler rejects when the device could not be used
   * @param {((deviceId: string) => Promise<void>) | null} handlers.onMicrophone  null: no choice
   * @param {((deviceId: string) => Promise<void>) | null} handlers.onSpeaker  null: no choice
   * @param {() => void} [handlers.onUpdate]  after the pickers were shown or hidden
   */
  constructor(parts, { onMicrophone, onSpeaker, onUpdate = () => {} }) {
    this.parts = parts;
    this.handlers = { microphone: onMicrophone, speaker: onSpeaker };
    this.onUpdate = onUpdate;
    this.current = { microphone: null, speaker: null };
    this.onChange = {
      microphone: () => this.#change('microphone'),
      speaker: () => this.#change('speaker'),
    };
    parts.microphone.addEventListener('change', this.onChange.microphone);
    parts.speaker.addEventListener('change', this.onChange.speaker);
    this.onDeviceChange = () => this.refresh();
    navigator.mediaDevices?.addEventListener?.('devicechange', this.onDeviceChange);
  }

  /** Re-reads the device list; `current` names the devices in use. */
  async refresh(current = {}) {
    Object.assign(this.current, Object.fromEntries(Object.entries(current).filter(([, id]) => id)));
    if (!navigator.mediaDevices?.enumerateDevices) return this.#show([], []);
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
    const inputs = devices.filter((device) => device.kind === 'audioinput' && device.deviceId);
    const outputs = devices.filter((device) => device.kind === 'audiooutput' && device.deviceId);
    return this.#show(inputs, outputs);
  }

  #show(inputs, outputs) {
    const { microphone, microphoneField, speaker, speakerField } = this.parts;
    optionsFor(microphone, inputs, 'Microphone', this.current.microphone);
    optionsFor(speaker, outputs, 'Speaker', this.current.speaker ?? 'default');
    microphoneField.hidden = !this.handlers.microphone || inputs.length < 2;
    speakerField.hidden = !this.handlers.speaker || outputs.length < 2;
    this.onUpdate();
  }

  async #change(kind) {
    const handler = this.handlers[kind];
    if (!handler) return;
    const select = this.parts[kind];
    const wanted = select.value;
    const before = this.current[kind];
    select.disabled = true;
    try {
      await handler(wanted);
      this.current[kind] = wanted;
    } catch {
      // The device could not be opened: show the one still in use.
      if (before) select.value = before;
    } finally {
      select.disabled = false;
    }
  }

  dispose() {
    navigator.mediaDevices?.removeEventListener?.('devicechange', this.onDeviceChange);
    this.parts.microphone.removeEventListener('change', this.onChange.microphone);
    this.parts.speaker.removeEventListener('change', this.onChange.speaker);
  }
}
