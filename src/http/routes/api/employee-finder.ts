import { findEmployees } from '../../../operations/employee-finder.ts';
import { answerRoute } from '../../answer-route.ts';

/** POST /employee-finder: the people currently at a company (0.05 credits per employee returned). */
export default answerRoute('employee-finder', findEmployees);
