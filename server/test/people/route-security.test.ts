import { checkRouteSecurity } from '../security.ts';
import { peopleSecurity } from './security-fixture.ts';

checkRouteSecurity(peopleSecurity);
