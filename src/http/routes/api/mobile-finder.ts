import { findMobile } from '../../../operations/mobile-finder.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('mobile-finder', findMobile);
