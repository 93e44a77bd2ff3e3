import type { VendorPackage } from '../../core/http/vendor-modules.ts';

/** Browser libraries the room loads from its own origin, at `/room-assets/vendor/<name>`. */
export const ROOM_VENDOR_PACKAGES: Record<string, VendorPackage> = {
  // Writes the duration into MediaRecorder's WebM (it has none: players cannot seek).
  'fix-webm-duration.js': { resolve: 'fix-webm-duration', format: 'umd' },
};
