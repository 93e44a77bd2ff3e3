// The meeting's controls: the microphone button (mutes the microphone for the service, the
// browser's recognition and the recording alike), the microphone and speaker pickers, and Leave.

import { DevicePicker } from './audio/devices.js';
import { MeetingAudio } from './audio/graph.js';
import { byId, setText } from './dom.js';
import { microphoneDeviceId, switchMicrophone } from './media.js';

export class MeetingControls {
  /** @param {import('./meeting.js').Meeting} meeting */
  constructor(meeting) {
    this.meeting = meeting;
    this.micOn = meeting.options.microphone;
    this.picker = null;
    const micToggle = byId('mic-toggle');
    micToggle.disabled = !this.micOn;
    this.#micButton(this.micOn);
    micToggle.addEventListener('click', () => this.#toggleMic());
    this.#bindSettings();
    this.#bindLeave();
  }

  /** After the first `joined`: the pickers (the speaker one only when the service's audio plays). */
  joined() {
    const { meeting } = this;
    const { audio, options } = meeting;
    const stream = options.microphone ? options.stream : null;
    // Without Web Audio the recording holds the microphone track itself, which cannot be swapped.
    const canSwitchMicrophone = Boolean(stream && (audio || !meeting.recording));
    const canChooseSpeaker = Boolean(
      audio && meeting.persona.mode === 'service' && MeetingAudio.speakerChoiceSupported,
    );
    if (!canSwitchMicrophone && !canChooseSpeaker) return;
    this.picker = new DevicePicker(
      {
        microphone: byId('meeting-mic'),
        microphoneField: byId('meeting-mic-field'),
        speaker: byId('meeting-speaker'),
        speakerField: byId('meeting-speaker-field'),
      },
      {
        onMicrophone: canSwitchMicrophone
          ? async (deviceId) => {
              try {
                await switchMicrophone(stream, deviceId);
              } catch (error) {
                meeting.status.flash(
                  'That microphone could not be opened. The previous one is still in use.',
                );
                throw error;
              }
              audio?.setMicrophone(stream);
              meeting.voiceInput.microphoneChanged();
            }
          : null,
        onSpeaker: canChooseSpeaker
          ? async (deviceId) => {
              try {
                await audio.setSpeaker(deviceId);
              } catch (error) {
                meeting.status.flash('That speaker could not be used.');
                throw error;
              }
            }
          : null,
        onUpdate: () => this.#showSettingsButton(),
      },
    );
    const speakerId = options.speakerId;
    if (canChooseSpeaker && speakerId && speakerId !== 'default') {
      audio.setSpeaker(speakerId).catch(() => {});
    }
    this.picker.refresh({ microphone: microphoneDeviceId(stream), speaker: speakerId });
  }

  /** The settings button shows when at least one picker has something to choose. */
  #showSettingsButton() {
    const nothing = byId('meeting-mic-field').hidden && byId('meeting-speaker-field').hidden;
    byId('audio-settings').hidden = nothing;
    if (nothing) this.#closeSettings();
  }

  #bindSettings() {
    const button = byId('audio-settings');
    const panel = byId('audio-settings-panel');
    button.addEventListener('click', () => {
      if (panel.hidden) {
        panel.hidden = false;
        button.setAttribute('aria-expanded', 'true');
        panel.querySelector('select:not([hidden])')?.focus();
      } else this.#closeSettings();
    });
    this.onEscape = (event) => {
      if (event.key !== 'Escape' || panel.hidden) return;
      const inside = panel.contains(document.activeElement);
      this.#closeSettings();
      if (inside) button.focus();
    };
    document.addEventListener('keydown', this.onEscape);
    this.onOutside = (event) => {
      if (!panel.hidden && !panel.contains(event.target) && !button.contains(event.target)) {
        this.#closeSettings();
      }
    };
    document.addEventListener('pointerdown', this.onOutside);
  }

  #closeSettings() {
    byId('audio-settings-panel').hidden = true;
    byId('audio-settings').setAttribute('aria-expanded', 'false');
  }

  #bindLeave() {
    const dialog = byId('leave-dialog');
    byId('leave').addEventListener('click', () => {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else this.meeting.leave();
    });
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'leave') this.meeting.leave();
    });
  }

  #toggleMic() {
    this.micOn = !this.micOn;
    // Disabling the track silences it everywhere, the recording included.
    for (const track of this.meeting.options.stream?.getAudioTracks() ?? []) track.enabled = this.micOn;
    this.#micButton(this.micOn);
    this.meeting.voiceInput.setMuted(!this.micOn);
    if (!this.micOn) this.meeting.transcript.userDraft('');
  }

  #micButton(on) {
    const button = byId('mic-toggle');
    button.setAttribute('aria-pressed', String(on));
    setText('mic-toggle-label', on ? 'Microphone on (select to mute)' : 'Microphone off');
    button.title = on ? 'Mute microphone' : 'Unmute microphone';
  }

  dispose() {
    this.picker?.dispose();
    this.#closeSettings();
    byId('audio-settings').hidden = true;
    document.removeEventListener('pointerdown', this.onOutside);
    document.removeEventListener('keydown', this.onEscape);
  }
}
