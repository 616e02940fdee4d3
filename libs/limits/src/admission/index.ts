export * from './redis-joint-store';
export * from './joint-admission.service';
export * from './joint-settlement';
