import { findRole } from '../../../operations/role-finder.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('role-finder', findRole);
