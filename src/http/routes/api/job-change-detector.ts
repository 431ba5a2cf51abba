import { detectJobChange } from '../../../operations/job-change-detector.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('job-change-detector', detectJobChange);
