import { Module } from '@nestjs/common';
import { StoredAnswerRepository } from './stored-answer.repository';
import { StoredAnswersService } from './stored-answers.service';

@Module({ providers: [StoredAnswerRepository, StoredAnswersService], exports: [StoredAnswersService] })
export class ConversationsModule {}
