import { InitialSchema1732200000000 } from './1732200000000-initial-schema';

/** Every migration, oldest first. The embedded database runs the very same list. */
export const MIGRATIONS = [InitialSchema1732200000000];
