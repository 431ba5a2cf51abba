import { findProfileEmail } from '../../../operations/b2b-profile-email.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('b2b-profile-email', findProfileEmail);
