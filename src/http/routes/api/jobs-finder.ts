import { findJobsSayingWhy } from '../../../operations/jobs-finder.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('jobs-finder', findJobsSayingWhy);
