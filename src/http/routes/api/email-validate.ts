import { validateEmail } from '../../../operations/email-validate.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('email-validate', validateEmail);
