import { checkRouteSecurity } from '../security.ts';
import { webhooksSecurity } from './security-fixture.ts';

checkRouteSecurity(webhooksSecurity);
