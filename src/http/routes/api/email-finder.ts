import { findEmail } from '../../../operations/email-finder.ts';
import { answerRoute } from '../../answer-route.ts';

/** POST /email-finder: a person's work address from their name and company (1 credit when found, else 0). */
export default answerRoute('email-finder', findEmail);
