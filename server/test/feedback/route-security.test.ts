import { checkRouteSecurity } from '../security.ts';
import { feedbackSecurity } from './security-fixture.ts';

checkRouteSecurity(feedbackSecurity);
