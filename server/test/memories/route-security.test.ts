import { checkRouteSecurity } from '../security.ts';
import { memoriesSecurity } from './security-fixture.ts';

checkRouteSecurity(memoriesSecurity);
