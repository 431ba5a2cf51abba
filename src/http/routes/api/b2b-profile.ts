import { emailToProfile } from '../../../operations/b2b-profile.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('b2b-profile', emailToProfile);
