import { findPersonalEmail } from '../../../operations/personal-email-finder.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('personal-email-finder', findPersonalEmail);
