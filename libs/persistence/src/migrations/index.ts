import { InitialSchema1732200000000 } from './1732200000000-initial-schema';
import { Registry1732300000000 } from './1732300000000-registry';
import { RequestLog1732400000000 } from './1732400000000-request-log';
import { KeyRouteKnob1732500000000 } from './1732500000000-key-route-knob';

/** Every migration, oldest first. The embedded database runs the very same list. */
export const MIGRATIONS = [InitialSchema1732200000000, Registry1732300000000, RequestLog1732400000000, KeyRouteKnob1732500000000];
